import FoundationEssentials

/// Where a hosted model is downloaded from, as ML Kit's `RemoteModelSource`: give one to
/// ``CustomRemoteModel/init(remoteModelSource:)``.
///
/// LiteVision's sources are its own, since ML Kit's hosting (Firebase ML) is being shut down:
/// ``URLModelSource`` downloads a model file from an HTTPS (or HTTP) address, ``RegistryModelSource`` a named
/// model from a LiteVision model registry (`litevision registry serve`), and ``FirebaseModelSource`` is the
/// name ported ML Kit code uses for the same thing, with the registry named by the `LITEVISION_REGISTRY` setting.
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

/// A named model on a LiteVision model registry (`litevision registry serve`): the registry tells which
/// version this machine gets (its latest, or the one rolled out to this machine's share of clients, chosen from
/// the cache's stable client id) and its SHA-256, which the downloaded file is checked against.
///
/// ```swift
/// let source = RegistryModelSource(registry: "https://models.example.com", name: "birds")
/// let remoteModel = CustomRemoteModel(remoteModelSource: source)
/// ```
public final class RegistryModelSource: RemoteModelSource, @unchecked Sendable {
    // @unchecked: as for RemoteModelSource, every stored property is a `let` of a Sendable type.
    /// The registry's address, for example `https://models.example.com:8470`.
    public let registry: String
    /// The model's name on the registry.
    public let name: String
    /// A read token, for a private model (sent as `Authorization: Bearer`).
    public let readToken: String?

    /// The model `name` on the registry at `registry`, read with `readToken` when it is private.
    public init(registry: String, name: String, readToken: String? = nil) {
        self.registry = registry
        self.name = name
        self.readToken = readToken
        super.init(location: .registry(url: registry, name: name, token: readToken))
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
