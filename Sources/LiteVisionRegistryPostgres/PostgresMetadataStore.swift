import FoundationEssentials
import LiteVisionRegistryStorage
import Logging
import PostgresNIO

/// The registry's metadata in PostgreSQL (schema: ``PostgresMigrations``), shared by any number of replicas.
///
/// Every change is one transaction that locks the model's row (`SELECT … FOR UPDATE`) before reading what it
/// changes, then increases the generation: publishers of one name on any replicas are serialized on that row, so
/// each gets the next number (strictly increasing, never reused) and the "latest" pointer and rollout move
/// atomically with it. Locks are always taken in the same order (model row, then the generation row) so changes
/// cannot deadlock; a collision PostgreSQL reports anyway is ``RegistryError/conflict(_:)``.
package struct PostgresMetadataStore: RegistryMetadataStore {
    let database: PostgresDatabase
    /// The generation, read once for all the requests asking at the same moment (see ``SharedRead``).
    private let generationRead: SharedRead<Int>

    init(database: PostgresDatabase) {
        self.database = database
        // The read (a one-row SELECT) must be answered, connection included, within the lease timeout.
        generationRead = SharedRead(deadline: database.leaseTimeout) { () throws(RegistryError) in
            try await database.withConnection("reading the generation") { connection in
                // A read past its deadline is cancelled; postgres-nio does not stop a running query on
                // cancellation, so the connection is closed: the query fails at once and the pool replaces the
                // connection, instead of keeping it for a query nobody waits for (each deadline would otherwise
                // take one more connection of the pool while the database does not answer).
                let generation: Result<Int, any Error>
                do {
                    generation = .success(
                        try await withTaskCancellationHandler {
                            try await Self.integer(
                                connection, "SELECT generation FROM registry_state WHERE id = 1", database.logger)
                        } onCancel: {
                            let _: EventLoopFuture<Void> = connection.close()
                        })
                } catch {
                    generation = .failure(error)
                }
                // A cancelled read's connection goes back to the pool only once closed (closed here if the
                // cancellation came too late for the handler): handed back while still closing, the pool could lease
                // it to the next read, which would fail with it (seen: `clientClosedConnection`).
                if Task.isCancelled {
                    let closing: EventLoopFuture<Void> = connection.close()
                    try? await closing.get()
                }
                return try generation.get()
            }
        }
    }

    private static let modelColumns =
        "name, latest_version, rollout_version, rollout_percent, is_private, last_version"
    private static let versionColumns = "name, version, sha256, size, created, summary"

    /// The generation as of a read that started after this call: a change committed through any replica before
    /// the call is seen.
    package func generation() async throws(RegistryError) -> Int {
        try await generationRead.value()
    }

    package func models() async throws(RegistryError) -> [ModelRecord] {
        try await database.withConnection("listing models") { connection in
            try await Self.models(
                connection,
                """
                SELECT \(unescaped: Self.modelColumns) FROM registry_model WHERE latest_version IS NOT NULL
                ORDER BY name COLLATE "C"
                """, database.logger)
        }
    }

    package func model(_ name: String) async throws(RegistryError) -> (model: ModelRecord, versions: [VersionRecord]) {
        try await database.withConnection("reading model \(name)") { connection in
            // One snapshot for both reads.
            try await connection.withTransaction(logger: database.logger) { connection in
                try await Self.snapshot(connection, database.logger)
                guard
                    let model = try await Self.models(
                        connection,
                        "SELECT \(unescaped: Self.modelColumns) FROM registry_model WHERE name = \(name)",
                        database.logger
                    ).first
                else { throw RegistryError.notFound(name) }
                let versions = try await Self.versions(
                    connection,
                    """
                    SELECT \(unescaped: Self.versionColumns) FROM registry_version WHERE name = \(name)
                    ORDER BY version DESC
                    """, database.logger)
                return (model, versions)
            }
        }
    }

    package func owners(ofBlob sha256: String) async throws(RegistryError) -> BlobOwnership {
        try await database.withConnection("reading the owners of blob \(sha256)") { connection in
            try await connection.withTransaction(logger: database.logger) { connection in
                try await Self.snapshot(connection, database.logger)
                let models = try await Self.models(
                    connection,
                    """
                    SELECT \(unescaped: Self.modelColumns) FROM registry_model
                    WHERE name IN (SELECT name FROM registry_version WHERE sha256 = \(sha256)) ORDER BY name COLLATE "C"
                    """, database.logger)
                var versions: [(model: String, version: Int)] = []
                for try await (model, version) in try await connection.query(
                    "SELECT name, version FROM registry_version WHERE sha256 = \(sha256)", logger: database.logger
                ).decode((String, Int).self) {
                    versions.append((model, version))
                }
                return BlobOwnership(models: models, versions: versions)
            }
        }
    }

    package func referencedBlobs() async throws(RegistryError) -> Set<String> {
        try await database.withConnection("listing the blobs in use") { connection in
            var referenced = Set<String>()
            for try await sha256 in try await connection.query(
                "SELECT DISTINCT sha256 FROM registry_version", logger: database.logger
            ).decode(String.self) {
                referenced.insert(sha256)
            }
            return referenced
        }
    }

    package func recordVersion(
        of name: String, blob: StoredBlob, summary: String, isPrivate: Bool?
    ) async throws(RegistryError) -> VersionRecord {
        try await database.withTransaction("publishing \(name)") { connection in
            let logger = database.logger
            try await connection.query(
                "INSERT INTO registry_model (name) VALUES (\(name)) ON CONFLICT (name) DO NOTHING", logger: logger)
            guard var model = try await Self.lockedModel(connection, name, logger) else {
                throw RegistryError.notFound(name)
            }
            let highest = try await Self.integer(
                connection, "SELECT COALESCE(MAX(version), 0) FROM registry_version WHERE name = \(name)", logger)
            let next = max(model.lastVersion, highest) + 1
            let record = VersionRecord(
                name: name, version: next, sha256: blob.sha256, size: blob.size, created: Date(), summary: summary)
            // The blob's row must exist (a foreign key): if it was just removed, this fails and nothing is recorded.
            try await connection.query(
                """
                INSERT INTO registry_version (name, version, sha256, size, created, summary)
                VALUES (\(name), \(next), \(blob.sha256), \(blob.size), \(record.created), \(summary))
                """, logger: logger)
            model.latestVersion = next
            model.lastVersion = next
            if let isPrivate { model.isPrivate = isPrivate }
            try await Self.update(connection, model, logger)
            return record
        }
    }

    package func promote(_ name: String, version: Int) async throws(RegistryError) {
        try await change(name, "promoting \(name)") { connection, model in
            guard try await Self.version(connection, name, version, database.logger) != nil else {
                throw RegistryError.notFound("\(name) version \(version)")
            }
            model.latestVersion = version
        }
    }

    package func rollout(_ name: String, version: Int, percent: Int) async throws(RegistryError) {
        try await change(name, "rolling out \(name)") { connection, model in
            guard try await Self.version(connection, name, version, database.logger) != nil else {
                throw RegistryError.notFound("\(name) version \(version)")
            }
            model.rolloutVersion = percent == 0 ? nil : version
            model.rolloutPercent = percent
        }
    }

    package func deleteVersion(_ name: String, version: Int) async throws(RegistryError) -> VersionRecord {
        try await change(name, "deleting \(name) version \(version)") { connection, model in
            let logger = database.logger
            guard let record = try await Self.version(connection, name, version, logger) else {
                throw RegistryError.notFound("\(name) version \(version)")
            }
            try await connection.query(
                "DELETE FROM registry_version WHERE name = \(name) AND version = \(version)", logger: logger)
            if model.latestVersion == version {
                let newest = try await Self.integer(
                    connection, "SELECT COALESCE(MAX(version), 0) FROM registry_version WHERE name = \(name)", logger)
                model.latestVersion = newest > 0 ? newest : nil
            }
            if model.rolloutVersion == version {
                model.rolloutVersion = nil
                model.rolloutPercent = 0
            }
            return record
        }
    }

    package func insertToken(_ token: TokenRecord) async throws(RegistryError) {
        _ = try await database.withConnection("storing a token") { connection in
            try await connection.query(
                """
                INSERT INTO registry_token (hash, role, model, created, expires)
                VALUES (\(token.hash), \(token.role), \(token.model), \(token.created), \(token.expires))
                """, logger: database.logger)
        }
    }

    package func token(hash: String) async throws(RegistryError) -> TokenRecord? {
        try await database.withConnection("checking a token") { connection in
            try await Self.tokens(
                connection, "SELECT \(unescaped: Self.tokenColumns) FROM registry_token WHERE hash = \(hash)",
                database.logger
            ).first
        }
    }

    package func tokens() async throws(RegistryError) -> [TokenRecord] {
        try await database.withConnection("listing tokens") { connection in
            try await Self.tokens(
                connection, "SELECT \(unescaped: Self.tokenColumns) FROM registry_token ORDER BY id", database.logger)
        }
    }

    package func revokeToken(id: Int64?, hash: String?) async throws(RegistryError) -> TokenRecord {
        let deleted = try await database.withConnection("revoking a token") { connection in
            try await Self.tokens(
                connection,
                """
                DELETE FROM registry_token WHERE id = \(id ?? -1) OR (\(id == nil) AND hash = \(hash ?? ""))
                RETURNING \(unescaped: Self.tokenColumns)
                """, database.logger
            ).first
        }
        guard let deleted else { throw .notFound(id.map { "token \($0)" } ?? "the token of that file") }
        return deleted
    }

    package func markTokenUsed(id: Int64, at date: Date) async throws(RegistryError) {
        _ = try await database.withConnection("recording a token's use") { connection in
            try await connection.query(
                "UPDATE registry_token SET last_used = \(date) WHERE id = \(id)", logger: database.logger)
        }
    }

    private static let tokenColumns = "id, hash, role, model, created, expires, last_used"

    /// The tokens `query` (selecting ``tokenColumns``) returns.
    private static func tokens(
        _ connection: PostgresConnection, _ query: PostgresQuery, _ logger: Logger
    ) async throws -> [TokenRecord] {
        var found: [TokenRecord] = []
        for try await (id, hash, role, model, created, expires, lastUsed) in try await connection.query(
            query, logger: logger
        ).decode((Int64, String, String, String?, Date, Date?, Date?).self) {
            found.append(
                TokenRecord(
                    id: id, hash: hash, role: role, model: model, created: created, expires: expires,
                    lastUsed: lastUsed))
        }
        return found
    }

    package func checkReady() async throws(RegistryError) {
        let schema = try await database.withConnection("checking readiness", timeout: .seconds(2)) { connection in
            try await Self.integer(
                connection, "SELECT COALESCE(MAX(version), 0) FROM registry_migrations", database.logger)
        }
        guard schema == PostgresMigrations.current else {
            throw .unavailable(
                "the database's registry schema is version \(schema), this program needs \(PostgresMigrations.current)"
            )
        }
    }

    // MARK: Helpers

    /// Runs `body` on the locked row of `name` in a transaction, then saves the row and increases the generation.
    private func change<T: Sendable>(
        _ name: String, _ what: String,
        _ body: @escaping @Sendable (PostgresConnection, inout ModelRecord) async throws -> T
    ) async throws(RegistryError) -> T {
        try await database.withTransaction(what) { connection in
            guard var model = try await Self.lockedModel(connection, name, database.logger) else {
                throw RegistryError.notFound(name)
            }
            let result = try await body(connection, &model)
            try await Self.update(connection, model, database.logger)
            return result
        }
    }

    /// Makes the transaction just begun read one snapshot of the database in all of its statements.
    private static func snapshot(_ connection: PostgresConnection, _ logger: Logger) async throws {
        try await connection.query("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY", logger: logger)
    }

    /// The row of `name`, locked until the transaction ends.
    private static func lockedModel(
        _ connection: PostgresConnection, _ name: String, _ logger: Logger
    ) async throws -> ModelRecord? {
        try await models(
            connection, "SELECT \(unescaped: modelColumns) FROM registry_model WHERE name = \(name) FOR UPDATE",
            logger
        ).first
    }

    /// Saves `model` (locked) and increases the generation (the last lock a change takes).
    private static func update(_ connection: PostgresConnection, _ model: ModelRecord, _ logger: Logger) async throws {
        try await connection.query(
            """
            UPDATE registry_model SET latest_version = \(model.latestVersion), rollout_version = \(model.rolloutVersion),
            rollout_percent = \(model.rolloutPercent), is_private = \(model.isPrivate),
            last_version = \(model.lastVersion) WHERE name = \(model.name)
            """, logger: logger)
        try await connection.query(
            "UPDATE registry_state SET generation = generation + 1 WHERE id = 1", logger: logger)
    }

    private static func version(
        _ connection: PostgresConnection, _ name: String, _ version: Int, _ logger: Logger
    ) async throws -> VersionRecord? {
        try await versions(
            connection,
            "SELECT \(unescaped: versionColumns) FROM registry_version WHERE name = \(name) AND version = \(version)",
            logger
        ).first
    }

    private static func models(
        _ connection: PostgresConnection, _ query: PostgresQuery, _ logger: Logger
    ) async throws -> [ModelRecord] {
        var models: [ModelRecord] = []
        for try await (name, latest, rollout, percent, isPrivate, last) in try await connection.query(
            query, logger: logger
        ).decode((String, Int?, Int?, Int, Bool, Int).self) {
            models.append(
                ModelRecord(
                    name: name, latestVersion: latest, rolloutVersion: rollout, rolloutPercent: percent,
                    isPrivate: isPrivate, lastVersion: last))
        }
        return models
    }

    private static func versions(
        _ connection: PostgresConnection, _ query: PostgresQuery, _ logger: Logger
    ) async throws -> [VersionRecord] {
        var versions: [VersionRecord] = []
        for try await (name, version, sha256, size, created, summary) in try await connection.query(
            query, logger: logger
        ).decode((String, Int, String, Int, Date, String).self) {
            versions.append(
                VersionRecord(
                    name: name, version: version, sha256: sha256, size: size, created: created, summary: summary))
        }
        return versions
    }

    /// The first column of the first row of `query`, an integer.
    static func integer(_ connection: PostgresConnection, _ query: PostgresQuery, _ logger: Logger) async throws -> Int
    {
        for try await value in try await connection.query(query, logger: logger).decode(Int.self) {
            return value
        }
        throw RegistryError.storage("the registry's tables are incomplete (\(query.sql.prefix(60)))")
    }
}
