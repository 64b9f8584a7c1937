/// A model hosted on a server, as ML Kit's `RemoteModel`: the base of ``CustomRemoteModel``, the type
/// download notifications carry.
public class RemoteModel: Hashable, CustomStringConvertible, @unchecked Sendable {
    // @unchecked: the class is not final (as in ML Kit, CustomRemoteModel is a subclass), which rules out the
    // checked conformance; its stored properties are `let`s of Sendable types set once in `init`.

    /// Where the model is downloaded from.
    public let remoteModelSource: RemoteModelSource
    /// A readable name for messages: the model's name on a registry, else the file name of the source's address.
    public let name: String

    init(remoteModelSource: RemoteModelSource) {
        self.remoteModelSource = remoteModelSource
        switch remoteModelSource.location {
        case .url(let url, _):
            let path = url.split(separator: "?", maxSplits: 1).first.map(String.init) ?? url
            name = path.split(separator: "/").last.map(String.init) ?? url
        case .registry(_, let name, _):
            self.name = name
        }
    }

    /// The identity of the model in the cache (equal sources, equal keys; a registry's read token is not part of
    /// it).
    package var cacheKey: String {
        SHA256Digest.hex(of: Array(remoteModelSource.location.identity.utf8)).prefix(32).description
    }

    /// Two remote models with the same source are the same model: they share one downloaded copy. (For a
    /// registry: the same registry and name, whatever the read token.)
    public static func == (lhs: RemoteModel, rhs: RemoteModel) -> Bool {
        lhs.remoteModelSource.location.identity == rhs.remoteModelSource.location.identity
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(remoteModelSource.location.identity)
    }

    public var description: String { "remote model \(name)" }
}

/// A custom TFLite model hosted on a server, downloaded on demand into a cache on this machine, as ML Kit's
/// `CustomRemoteModel`.
///
/// ```swift
/// let source = RemoteModelSource.url("https://models.example.com/birds.tflite", sha256: "7951…416f")
/// let remoteModel = CustomRemoteModel(remoteModelSource: source)
/// ```
/// Two remote models with the same source are the same model: they share one downloaded copy.
public final class CustomRemoteModel: RemoteModel, @unchecked Sendable {
    // @unchecked: as for RemoteModel; this subclass adds no stored property.

    /// A remote model downloaded from `remoteModelSource`.
    public override init(remoteModelSource: RemoteModelSource) {
        super.init(remoteModelSource: remoteModelSource)
    }
}
