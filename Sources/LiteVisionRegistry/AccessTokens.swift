import Crypto
import FoundationEssentials
import GRDB
import LiteVisionModelStore

/// What a bearer token allows.
package enum TokenRole: String, Sendable, CaseIterable {
    /// Publish, promote, roll out and delete versions (and read everything).
    case publish
    /// Read private models (all of them, or the one the token names).
    case read
}

/// What a valid token allows: its role, and for a read token the one model it is limited to (nil: all).
package struct TokenGrant: Sendable, Equatable {
    package var role: TokenRole
    package var model: String?
}

extension ModelRegistry {
    /// Creates a token with `role` (for read tokens, optionally limited to `model`) and returns it: the only
    /// time it exists in clear. The registry keeps its SHA-256.
    package func createToken(role: TokenRole, model: String? = nil) throws(RegistryError) -> String {
        if let model { try Self.validate(name: model) }
        var random = SystemRandomNumberGenerator()
        let secret = (0..<32).map { _ in UInt8.random(in: 0...255, using: &random) }
        let token = "lvr_" + SHA256Digest.hex(secret)
        var record = TokenRecord(
            id: nil, hash: Self.tokenHash(token), role: role.rawValue, model: model, created: Date())
        do {
            try database.pool.write { db in try record.insert(db) }
        } catch {
            throw .storage("the token could not be stored: \(error)")
        }
        return token
    }

    /// The role of `token` and the model it is limited to, or nil when it is not a token of this registry.
    /// The token is hashed first and the stored hash compared in constant time.
    package func authorize(_ token: String) -> TokenGrant? {
        guard token.hasPrefix("lvr_"), token.utf8.count == 68 else { return nil }
        let hash = Self.tokenHash(token)
        guard
            let record = try? database.pool.read({ db in try TokenRecord.filter(Column("hash") == hash).fetchOne(db) }),
            Self.constantTimeEqual(Array(record.hash.utf8), Array(hash.utf8)),
            let role = TokenRole(rawValue: record.role)
        else { return nil }
        return TokenGrant(role: role, model: record.model)
    }

    static func tokenHash(_ token: String) -> String {
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
