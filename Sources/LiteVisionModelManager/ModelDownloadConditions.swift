/// When a remote model may be downloaded, as ML Kit's `ModelDownloadConditions`.
///
/// On Linux the two conditions mean:
/// - ``allowsCellularAccess``: when `false`, a download does not run while the network is cellular: the interface
///   the kernel routes to the internet (the default route, in this process's network namespace) is a modem
///   (`wwan*`, `ww*`, `ppp*`), or NetworkManager marks it metered (asked with `nmcli` when it is installed). A
///   foreground download then fails with ``ModelDownloadError/Reason/conditionsNotMet(_:)`` naming the interface;
///   a background one waits for another network.
/// - ``allowsBackgroundDownloading``: Linux programs have no background state, so LiteVision gives it the meaning
///   of iOS's background transfers that matters to a device in the field: the download waits out network
///   problems instead of failing at the first one. The server unreachable, a DNS failure, a cut transfer, HTTP
///   408/429/5xx, or a cellular network when cellular access is not allowed are retried after 1, 2, 4 … 60 s
///   for up to 24 hours (or until `progress.cancel()`), each attempt resuming the bytes already received; the
///   notification is posted once, when it finally succeeds or fails for a reason time cannot cure. Without it
///   (the default, as in ML Kit) the first failure is reported. Either way the download runs in this process; an
///   interrupted one resumes at the next `download`, in this process or another, from where it stopped.
public struct ModelDownloadConditions: Sendable, Hashable {
    /// Whether the download may run over a cellular (modem) connection. Default `true`, as in ML Kit.
    public var allowsCellularAccess: Bool
    /// Whether the download waits out network problems (see above). Default `false`, as in ML Kit.
    public var allowsBackgroundDownloading: Bool

    /// Conditions with ML Kit's defaults unless given.
    public init(allowsCellularAccess: Bool = true, allowsBackgroundDownloading: Bool = false) {
        self.allowsCellularAccess = allowsCellularAccess
        self.allowsBackgroundDownloading = allowsBackgroundDownloading
    }
}
