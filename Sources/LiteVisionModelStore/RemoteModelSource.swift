import FoundationEssentials

/// Where a hosted model is downloaded from, as ML Kit's `RemoteModelSource`: give one to
/// ``CustomRemoteModel/init(remoteModelSource:)``.
///
/// LiteVision's sources are its own, since ML Kit's hosting (Firebase ML) is being shut down:
/// ``url(_:sha256:)`` downloads a model file from an HTTPS (or HTTP) address, ``registry(_:name:readToken:)`` a
/// named model from a LiteVision model registry (`litevision registry serve`), and ``FirebaseModelSource`` is the
/// name ported ML Kit code uses for the same thing, with the registry named by the `LITEVISION_REGISTRY` setting.
///
/// ```swift
/// let remoteModel = CustomRemoteModel(
///     remoteModelSource: .registry("https://models.example.com", name: "birds"))
/// ```
public class RemoteModelSource: @unchecked Sendable {
    // @unchecked: the class is not final (sources are subclasses, as in ML Kit), which rules out the checked
    // conformance; every stored property, here and in the subclasses, is a `let` of a Sendable type set once in
    // `init`, so instances are immutable and safe to share.

    /// Where the bytes are and how a downloaded copy is known to be the right one.
    package let location: RemoteModelLocation

    package init(location: RemoteModelLocation) {
        self.location = location
    }

    /// A model file at `url` (`https://` or `http://`), verified against `sha256` (64 hexadecimal digits) when it
    /// is given, before it is installed. Without a SHA-256 the server's `ETag` tells versions apart: a download
    /// when the server still has the same `ETag` completes at once without transferring the file again.
    public static func url(_ url: String, sha256: String? = nil) -> RemoteModelSource {
        RemoteModelSource(location: .url(url, sha256: sha256?.lowercased()))
    }

    /// The model `name` on the LiteVision model registry at `registry` (for example
    /// `https://models.example.com:8470`), read with `readToken` (sent as `Authorization: Bearer`) when it is
    /// private. The registry tells which version this machine gets (its latest, or the one rolled out to this
    /// machine's share of clients, chosen from the cache's stable client id) and its SHA-256, which the downloaded
    /// file is checked against.
    public static func registry(_ registry: String, name: String, readToken: String? = nil) -> RemoteModelSource {
        RemoteModelSource(location: .registry(url: registry, name: name, token: readToken))
    }
}

/// ML Kit's Firebase-hosted model source, for ported code: `FirebaseModelSource(name: "birds")` names a model on
/// the LiteVision registry given by the `LITEVISION_REGISTRY` setting (its address), read with the token in
/// `LITEVISION_REGISTRY_TOKEN` when that is set. Firebase ML itself is not contacted (it shuts down in June 2027).
/// Without `LITEVISION_REGISTRY`, downloads fail with an error that says so.
public final class FirebaseModelSource: RemoteModelSource, @unchecked Sendable {
    // @unchecked: as for RemoteModelSource, every stored property is a `let` of a Sendable type.
    /// The model's name on the registry.
    public let name: String

    /// The model `name` on the registry named by `LITEVISION_REGISTRY`.
    public init(name: String) {
        self.name = name
        let environment = ProcessInfo.processInfo.environment
        super.init(
            location: .registry(
                url: environment["LITEVISION_REGISTRY"] ?? "", name: name,
                token: environment["LITEVISION_REGISTRY_TOKEN"].flatMap { $0.isEmpty ? nil : $0 }))
    }
}

/// Where a remote model's bytes are (the store's view of a ``RemoteModelSource``).
package enum RemoteModelLocation: Sendable, Hashable {
    /// A file at an address, with its SHA-256 if known.
    case url(String, sha256: String?)
    /// A named model on a registry (an empty address when none is configured), with a read token.
    case registry(url: String, name: String, token: String?)

    /// The address shown in errors and messages.
    package var displayAddress: String {
        switch self {
        case .url(let url, _): url
        case .registry(let url, let name, _): (url.isEmpty ? "<LITEVISION_REGISTRY>" : url) + " model " + name
        }
    }

    /// What identifies the model in the cache: the token does not.
    var identity: String {
        switch self {
        case .url(let url, _): "url\u{0}\(url)"
        case .registry(let url, let name, _):
            "registry\u{0}\(url.hasSuffix("/") ? String(url.dropLast()) : url)\u{0}\(name)"
        }
    }
}
