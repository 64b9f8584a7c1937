import Crypto
import LiteVisionModelStore
import LiteVisionRegistryStorage

// The registry's rules, whatever its storage: what a name may be, which version a client gets, who may read a
// model. Used by the service and its routes; kept here once.
extension RegistryService {
    /// Checks a model name: letters, digits, `.`, `_`, `-`; 1 to 64 characters; no `..`.
    package static func validate(name: String) throws(RegistryError) {
        guard RegistryName.isValid(name) else {
            throw .invalidName(name)
        }
    }

    /// Checks a rollout percentage.
    static func validate(percent: Int) throws(RegistryError) {
        guard (0...100).contains(percent) else {
            throw .invalidRequest("the percentage must be 0 to 100, not \(percent)")
        }
    }

    /// The version of `model` (with `versions`) that `clientID` gets: the rolled-out version for the clients whose
    /// bucket (``bucket(name:clientID:)``) is below the rollout percentage, else the latest.
    package static func served(
        _ model: ModelRecord, versions: [PublishedVersion], to clientID: String?
    ) -> PublishedVersion? {
        var chosen = model.latestVersion
        if let rollout = model.rolloutVersion, model.rolloutPercent > 0, let clientID,
            bucket(name: model.name, clientID: clientID) < model.rolloutPercent
        {
            chosen = rollout
        }
        return versions.first { $0.version == chosen }
    }

    /// Whether a client holding `grant` (nil: no token) may read `model`: public models are read by anyone,
    /// private ones with a publish token, a read token for every model, or a read token for that model.
    package static func canRead(_ model: ModelRecord, with grant: TokenGrant?) -> Bool {
        guard model.isPrivate else { return true }
        guard let grant else { return false }
        return grant.role == .publish || grant.model == nil || grant.model == model.name
    }

    /// A stable bucket 0–99 for a client and a model: computed from the name and the client id alone, so every
    /// replica of a registry gives a client the same answer.
    package static func bucket(name: String, clientID: String) -> Int {
        let digest = Array(SHA256.hash(data: Array("\(name)\u{0}\(clientID)".utf8)))
        let value = digest.prefix(8).reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        return Int(value % 100)
    }
}
