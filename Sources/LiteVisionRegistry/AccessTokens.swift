import Crypto
import FoundationEssentials
import LiteVisionModelStore
import LiteVisionRegistryStorage

/// Access tokens: `lvr_` and 64 hexadecimal digits of randomness. Only their SHA-256 is stored; a presented token
/// is hashed and the stored hash compared in constant time.
package enum AccessTokens {
    /// A new token with `role` (for read tokens, optionally limited to `model`), valid for `lifetime` seconds
    /// (nil: until revoked), and its record to store.
    static func make(
        role: TokenRole, model: String?, lifetime: Int? = nil
    ) -> (token: String, record: TokenRecord) {
        var random = SystemRandomNumberGenerator()
        let secret = (0..<32).map { _ in UInt8.random(in: 0...255, using: &random) }
        let token = "lvr_" + SHA256Digest.hex(secret)
        let now = Date()
        let expires = lifetime.map { now.addingTimeInterval(TimeInterval($0)) }
        return (
            token, TokenRecord(hash: hash(token), role: role.rawValue, model: model, created: now, expires: expires)
        )
    }

    /// The longest lifetime a token may be given (`token create --expires-in`): 100 years, in seconds.
    package static let maximumLifetime = 100 * 366 * 86400

    /// How often a token's last use is recorded at most (a write per request would be a write per download).
    static let lastUseResolution: TimeInterval = 60

    /// Whether the store should record that `record` was used at `now`.
    static func shouldRecordUse(of record: TokenRecord, at now: Date) -> Bool {
        guard let last = record.lastUsed else { return true }
        return now.timeIntervalSince(last) >= lastUseResolution || now < last
    }

    /// The hash to look `token` up by, or nil when it cannot be a token of a registry.
    static func lookupHash(_ token: String) -> String? {
        guard token.hasPrefix("lvr_"), token.utf8.count == 68 else { return nil }
        return hash(token)
    }

    /// What `record` (found by `hash`) grants at `now`, after comparing the hashes in constant time: nothing once
    /// it has expired.
    static func grant(_ record: TokenRecord?, hash: String, now: Date = Date()) -> TokenGrant? {
        guard let record, constantTimeEqual(Array(record.hash.utf8), Array(hash.utf8)),
            let role = TokenRole(rawValue: record.role), record.expires.map({ now < $0 }) ?? true
        else { return nil }
        return TokenGrant(role: role, model: record.model)
    }

    /// Checks a token's lifetime: 1 second to ``maximumLifetime``.
    static func validate(lifetime: Int?) throws(RegistryError) {
        guard let lifetime else { return }
        guard (1...maximumLifetime).contains(lifetime) else {
            throw .invalidRequest("a token's lifetime must be 1 second to 100 years, not \(lifetime) seconds")
        }
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
