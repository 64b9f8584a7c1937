import Crypto
import FoundationEssentials
import LiteVisionModelStore
import LiteVisionRegistryStorage

/// Access tokens: `lvr_` and 64 hexadecimal digits of randomness. Only their SHA-256 is stored; a presented token
/// is hashed and the stored hash compared in constant time.
enum AccessTokens {
    /// A new token with `role` (for read tokens, optionally limited to `model`) and its record to store.
    static func make(role: TokenRole, model: String?) -> (token: String, record: TokenRecord) {
        var random = SystemRandomNumberGenerator()
        let secret = (0..<32).map { _ in UInt8.random(in: 0...255, using: &random) }
        let token = "lvr_" + SHA256Digest.hex(secret)
        return (token, TokenRecord(hash: hash(token), role: role.rawValue, model: model, created: Date()))
    }

    /// The hash to look `token` up by, or nil when it cannot be a token of a registry.
    static func lookupHash(_ token: String) -> String? {
        guard token.hasPrefix("lvr_"), token.utf8.count == 68 else { return nil }
        return hash(token)
    }

    /// What `record` (found by `hash`) grants, after comparing the hashes in constant time.
    static func grant(_ record: TokenRecord?, hash: String) -> TokenGrant? {
        guard let record, constantTimeEqual(Array(record.hash.utf8), Array(hash.utf8)),
            let role = TokenRole(rawValue: record.role)
        else { return nil }
        return TokenGrant(role: role, model: record.model)
    }

    static func hash(_ token: String) -> String {
        SHA256Digest.hex(SHA256.hash(data: Array(token.utf8)))
    }

    /// Whether two byte strings are equal, taking the same time wherever they differ.
    static func constantTimeEqual(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        var difference: UInt8 = 0
        for index in a.indices { difference |= a[index] ^ b[index] }
        return difference == 0
    }
}

extension ModelRegistry {
    /// Creates a token with `role` (for read tokens, optionally limited to `model`) and returns it: the only
    /// time it exists in clear. The registry keeps its SHA-256.
    package func createToken(role: TokenRole, model: String? = nil) throws(RegistryError) -> String {
        if let model { try Self.validate(name: model) }
        let made = AccessTokens.make(role: role, model: model)
        try metadata.insertTokenNow(made.record)
        return made.token
    }

    /// The role of `token` and the model it is limited to, or nil when it is not a token of this registry.
    /// The token is hashed first and the stored hash compared in constant time.
    package func authorize(_ token: String) -> TokenGrant? {
        guard let hash = AccessTokens.lookupHash(token) else { return nil }
        return AccessTokens.grant(try? metadata.tokenNow(hash: hash), hash: hash)
    }
}
