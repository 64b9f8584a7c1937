/// Where a hosted model is downloaded from, as ML Kit's `RemoteModelSource`: give one to
/// ``CustomRemoteModel/init(remoteModelSource:)``.
///
/// LiteVision's sources are its own, since ML Kit's hosting (Firebase ML) is being shut down:
/// ``URLModelSource`` downloads a model file from an HTTPS (or HTTP) address.
public class RemoteModelSource: @unchecked Sendable {
    // @unchecked: the class is not final (sources are subclasses, as in ML Kit), which rules out the checked
    // conformance; every stored property, here and in the subclasses, is a `let` of a Sendable type set once in
    // `init`, so instances are immutable and safe to share.

    /// Where the bytes are and how a downloaded copy is known to be the right one.
    package let location: RemoteModelLocation

    package init(location: RemoteModelLocation) {
        self.location = location
    }
}

/// A model file at an address: its SHA-256, when given, is checked before the file is installed; without it,
/// the server's `ETag` tells versions apart (a download when the server still has the same `ETag` completes at
/// once without transferring the file again).
public final class URLModelSource: RemoteModelSource, @unchecked Sendable {
    // @unchecked: as for RemoteModelSource, every stored property is a `let` of a Sendable type.
    /// The address of the `.tflite` file (`https://` or `http://`).
    public let url: String
    /// The file's SHA-256 (64 hexadecimal digits), if known.
    public let sha256: String?

    /// A model file at `url`, verified against `sha256` when it is given.
    public init(url: String, sha256: String? = nil) {
        self.url = url
        self.sha256 = sha256?.lowercased()
        super.init(location: .url(url, sha256: sha256?.lowercased()))
    }
}

/// Where a remote model's bytes are (the store's view of a ``RemoteModelSource``).
package enum RemoteModelLocation: Sendable, Hashable {
    /// A file at an address, with its SHA-256 if known.
    case url(String, sha256: String?)
}
