import FoundationEssentials
import LiteVision
import LiteVisionRegistryStorage
import NIOCore

/// The registry's logic on any storage: a ``RegistryMetadataStore`` and a ``RegistryBlobStore`` (SQLite and files
/// for the embedded registry, ``ModelRegistry/service``; PostgreSQL for replicas). The one front door of the
/// registry: what the HTTP routes and the command line (`token`, `backup`) use. Its rules (names, rollout buckets,
/// who may read what) are in ``RegistryService`` once, whatever the storage.
///
/// Nothing here is kept between requests but what the stores keep, so any number of services on one shared
/// storage (replicas) behave as one: a client's rollout bucket comes from the model name and its id alone.
package struct RegistryService: Sendable {
    /// Models, versions and tokens.
    package let metadata: any RegistryMetadataStore
    /// Model files.
    package let blobs: any RegistryBlobStore
    /// The embedded registry whose stores these are (kept alive: it holds its data folder's lock), if they are.
    private let embedded: ModelRegistry?
    /// The deadline of an upload's trial run (``UploadTrial``: the model run once, as clients will, before it is
    /// published), in seconds; `nil` publishes without one. ``defaultUploadTrialTimeout`` by default.
    package var uploadTrialTimeout: Double? = Self.defaultUploadTrialTimeout

    /// The deadline of an upload's trial run unless set otherwise: 10 s, as clients' inference deadline
    /// (`ProcessingOptions.inferenceTimeout`).
    package static let defaultUploadTrialTimeout = 10.0

    /// The registry on `metadata` and `blobs` (PostgreSQL's, say).
    package init(metadata: any RegistryMetadataStore, blobs: any RegistryBlobStore) {
        self.metadata = metadata
        self.blobs = blobs
        embedded = nil
    }

    /// The registry of the data folder of `embedded`.
    init(embedded: ModelRegistry) {
        metadata = embedded.metadata
        blobs = embedded.blobs
        self.embedded = embedded
    }

    /// How many times a publish stores its blob and records its version before a collision with deletes of the
    /// same content (on other replicas) is reported as a conflict.
    static let publishAttempts = 3

    /// A new upload to write and then ``publish(_:as:isPrivate:)``.
    package func incoming() throws(RegistryError) -> IncomingBlob { try blobs.makeUpload() }

    /// Publishes the model in `upload` (complete) as the next version of `name`, which becomes its latest.
    /// The file must be a classifier or detector LiteVision accepts and, unless ``uploadTrialTimeout`` is nil, pass
    /// its trial run (``UploadCheck``). `isPrivate`, when given, makes the model private (served only with a read
    /// token) or public; when nil a new model is public and an existing one keeps its setting.
    package func publish(
        _ upload: IncomingBlob, as name: String, isPrivate: Bool? = nil
    ) async throws(RegistryError) -> PublishedVersion {
        try Self.validate(name: name)
        let summary = try await UploadCheck.check(upload, trialTimeout: uploadTrialTimeout)
        let summaryText = UploadCheck.encoded(summary)
        var attempt = 1
        while true {
            let stored = try await blobs.store(upload)
            do {
                let record = try await metadata.recordVersion(
                    of: name, blob: stored, summary: summaryText, isPrivate: isPrivate)
                await blobs.release(stored, recorded: true)
                return PublishedVersion(record, summary: summary)
            } catch {
                await blobs.release(stored, recorded: false)
                // The blob was removed between its store and the record (a delete of the same content elsewhere):
                // nothing was recorded; store it again.
                guard case .conflict = error, attempt < Self.publishAttempts else { throw error }
                attempt += 1
            }
        }
    }

    /// Every model that has a version, by name.
    package func list() async throws(RegistryError) -> [ModelRecord] { try await metadata.models() }

    /// A model and its versions, newest first.
    package func info(_ name: String) async throws(RegistryError) -> (model: ModelRecord, versions: [PublishedVersion])
    {
        try Self.validate(name: name)
        let (model, versions) = try await metadata.model(name)
        return (model, versions.map { PublishedVersion($0) })
    }

    /// Makes `version` the latest of `name` (a rollback when it is older).
    package func promote(_ name: String, version: Int) async throws(RegistryError) {
        try Self.validate(name: name)
        try await metadata.promote(name, version: version)
    }

    /// Serves `version` to `percent` % of clients (0 ends the rollout).
    package func rollout(_ name: String, version: Int, percent: Int) async throws(RegistryError) {
        try Self.validate(percent: percent)
        try Self.validate(name: name)
        try await metadata.rollout(name, version: version, percent: percent)
    }

    /// Deletes a version; the latest moves to the newest remaining one, a rollout of it ends, and its file goes
    /// when no other version has the same content.
    package func delete(_ name: String, version: Int) async throws(RegistryError) {
        try Self.validate(name: name)
        let deleted = try await metadata.deleteVersion(name, version: version)
        await blobs.removeIfUnreferenced(deleted.sha256)
    }

    /// Creates a token with `role` (for read tokens, optionally limited to `model`), valid for `lifetime` seconds
    /// (nil: until revoked), and returns it: the only time it exists in clear. The registry keeps its SHA-256.
    package func createToken(
        role: TokenRole, model: String? = nil, lifetime: Int? = nil
    ) async throws(RegistryError) -> String {
        if let model { try Self.validate(name: model) }
        try AccessTokens.validate(lifetime: lifetime)
        let made = AccessTokens.make(role: role, model: model, lifetime: lifetime)
        try await metadata.insertToken(made.record)
        return made.token
    }

    /// What `token` grants: nil when it is not a token of this registry (unknown, revoked or expired); an error
    /// when the storage cannot say. The token is looked up in the store every time, so a revocation made through
    /// any process is seen by the next request. Its last use is recorded (at most once a minute).
    package func authorize(_ token: String) async throws(RegistryError) -> TokenGrant? {
        guard let hash = AccessTokens.lookupHash(token) else { return nil }
        let record = try await metadata.token(hash: hash)
        let now = Date()
        guard let grant = AccessTokens.grant(record, hash: hash, now: now) else { return nil }
        if let record, let id = record.id, AccessTokens.shouldRecordUse(of: record, at: now) {
            // A use that cannot be recorded does not refuse the request: it is shown a minute later.
            try? await metadata.markTokenUsed(id: id, at: now)
        }
        return grant
    }

    /// Every token, by id, without its hash: what `token list` shows.
    package func tokens() async throws(RegistryError) -> [TokenListing] {
        try await metadata.tokens().map(TokenListing.init)
    }

    /// Revokes the token `id`, or `token` itself (read from a file): every process using the store refuses it
    /// from its next request. Returns what it was; ``RegistryError/notFound(_:)`` when there is no such token.
    package func revokeToken(id: Int64? = nil, token: String? = nil) async throws(RegistryError) -> TokenListing {
        let hash = try token.map { (token) throws(RegistryError) in
            guard let hash = AccessTokens.lookupHash(token) else {
                throw .invalidRequest("that is not a registry token (lvr_ and 64 hexadecimal digits)")
            }
            return hash
        }
        guard id != nil || hash != nil else { throw .invalidRequest("give the token's id or the token") }
        return TokenListing(try await metadata.revokeToken(id: id, hash: hash))
    }

    /// Copies the registry into the new folder `destination` while it keeps serving (see
    /// ``ModelRegistry/backup(to:)``): a data folder's registry only. Returns the number of versions and blobs copied.
    package func backup(to destination: String) async throws(RegistryError) -> (versions: Int, blobs: Int) {
        guard let embedded else {
            throw .invalidRequest("backup copies a data folder (--data); back up a PostgreSQL database with pg_dump")
        }
        return try await embedded.backup(to: destination)
    }
}
