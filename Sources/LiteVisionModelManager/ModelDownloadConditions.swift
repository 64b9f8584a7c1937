/// When a remote model may be downloaded, as ML Kit's `ModelDownloadConditions`.
///
/// On Linux the two conditions mean:
/// - ``allowsCellularAccess``: when `false`, a download does not start while the network interface the kernel
///   routes to the internet (the default route) is a modem (`wwan*`, `ww*`, `ppp*`); it fails with
///   ``ModelDownloadError/Reason/conditionsNotMet(_:)`` naming the interface.
/// - ``allowsBackgroundDownloading``: Linux programs have no background state to download in, so LiteVision gives
///   it no effect yet: the download runs in the calling process and ends with it (an interrupted download resumes
///   at the next `download`, from where it stopped).
public struct ModelDownloadConditions: Sendable, Hashable {
    /// Whether the download may run over a cellular (modem) connection. Default `true`, as in ML Kit.
    public var allowsCellularAccess: Bool
    /// Whether the download may go on in the background. Default `false`, as in ML Kit (see above).
    public var allowsBackgroundDownloading: Bool

    /// Conditions with ML Kit's defaults unless given.
    public init(allowsCellularAccess: Bool = true, allowsBackgroundDownloading: Bool = false) {
        self.allowsCellularAccess = allowsCellularAccess
        self.allowsBackgroundDownloading = allowsBackgroundDownloading
    }
}
