import FoundationEssentials

/// A named model: which version is "latest" and which one is rolled out to a share of clients.
package struct ModelRecord: Codable, Equatable, Sendable {
    package var name: String
    package var latestVersion: Int?
    package var rolloutVersion: Int?
    package var rolloutPercent: Int
    package var isPrivate: Bool
    /// The highest version number ever given to this name (deleted versions included).
    package var lastVersion: Int

    package init(
        name: String, latestVersion: Int? = nil, rolloutVersion: Int? = nil, rolloutPercent: Int = 0,
        isPrivate: Bool = false, lastVersion: Int = 0
    ) {
        self.name = name
        self.latestVersion = latestVersion
        self.rolloutVersion = rolloutVersion
        self.rolloutPercent = rolloutPercent
        self.isPrivate = isPrivate
        self.lastVersion = lastVersion
    }
}

/// One published version of a model, as stored.
package struct VersionRecord: Codable, Equatable, Sendable {
    package var name: String
    package var version: Int
    package var sha256: String
    package var size: Int
    package var created: Date
    /// The model's own TFLite metadata, summarized (JSON of LiteVision's `ModelSummary`); the stores keep it as text.
    package var summary: String

    package init(name: String, version: Int, sha256: String, size: Int, created: Date, summary: String) {
        self.name = name
        self.version = version
        self.sha256 = sha256
        self.size = size
        self.created = created
        self.summary = summary
    }
}

/// An access token as stored: only its SHA-256 is kept.
package struct TokenRecord: Codable, Equatable, Sendable {
    package var id: Int64?
    /// The SHA-256 of the token, in hexadecimal.
    package var hash: String
    package var role: String
    /// The model a read token is limited to; nil for every model.
    package var model: String?
    package var created: Date
    /// When the token stops being valid; nil: never.
    package var expires: Date?
    /// When the token was last presented (to the minute: it is recorded at most once a minute); nil: never.
    package var lastUsed: Date?

    package init(
        id: Int64? = nil, hash: String, role: String, model: String?, created: Date, expires: Date? = nil,
        lastUsed: Date? = nil
    ) {
        self.id = id
        self.hash = hash
        self.role = role
        self.model = model
        self.created = created
        self.expires = expires
        self.lastUsed = lastUsed
    }
}

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

    package init(role: TokenRole, model: String?) {
        self.role = role
        self.model = model
    }
}

/// A model file kept by a ``RegistryBlobStore``: its content address and size.
package struct StoredBlob: Sendable, Equatable {
    /// The SHA-256 of the bytes, 64 lowercase hexadecimal digits.
    package var sha256: String
    package var size: Int

    package init(sha256: String, size: Int) {
        self.sha256 = sha256
        self.size = size
    }
}

/// The models and versions whose file is one blob.
package struct BlobOwnership: Sendable {
    /// The models that have a version with the blob.
    package var models: [ModelRecord]
    /// Those versions.
    package var versions: [(model: String, version: Int)]

    package init(models: [ModelRecord], versions: [(model: String, version: Int)]) {
        self.models = models
        self.versions = versions
    }
}

/// A token as `token list` shows it: everything but its hash (and so never anything that could be used as it).
package struct TokenListing: Codable, Equatable, Sendable {
    package var id: Int64
    package var role: String
    /// The model a read token is limited to; nil for every model.
    package var model: String?
    package var created: Date
    /// When it stops being valid; nil: never.
    package var expires: Date?
    /// When it was last presented (recorded at most once a minute); nil: never.
    package var lastUsed: Date?

    package init(_ record: TokenRecord) {
        id = record.id ?? 0
        role = record.role
        model = record.model
        created = record.created
        expires = record.expires
        lastUsed = record.lastUsed
    }
}
