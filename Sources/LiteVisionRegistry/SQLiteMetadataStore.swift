import FoundationEssentials
import GRDB
import LiteVisionRegistryStorage
import Synchronization

/// The embedded registry's metadata: SQLite in the data folder (``RegistryDatabase``), for one server process.
///
/// Every change is one write transaction, so versions of a name are numbered 1, 2, 3… without gaps or duplicates
/// even when publishers race, and the "latest" pointer and the rollout change atomically. Every method of the
/// ``RegistryMetadataStore`` protocol goes through GRDB's async API: the database work runs on GRDB's own queues,
/// never on an event loop or a thread of Swift concurrency's pool, which wait for it without being held. The one
/// synchronous read, ``isReferenced(_:)``, is called only from the ``BlobStore``'s removals on a thread of their own.
final class SQLiteMetadataStore: RegistryMetadataStore {
    let database: RegistryDatabase
    /// See ``changeCount``.
    private let changes = Atomic<Int>(0)

    init(database: RegistryDatabase) {
        self.database = database
    }

    /// A number that grows with every change of models or versions made through this store (one server per data
    /// folder makes it complete; tools beside the server change only tokens).
    var changeCount: Int { changes.load(ordering: .acquiring) }

    func generation() async throws(RegistryError) -> Int { changeCount }

    // MARK: Reading

    func models() async throws(RegistryError) -> [ModelRecord] {
        try await read { db in
            try ModelRecord.filter(Column("latestVersion") != nil).order(Column("name")).fetchAll(db)
        }
    }

    func model(_ name: String) async throws(RegistryError) -> (model: ModelRecord, versions: [VersionRecord]) {
        try await read { db in
            guard let model = try ModelRecord.fetchOne(db, key: name) else { throw RegistryError.notFound(name) }
            let versions = try VersionRecord.filter(Column("name") == name).order(Column("version").desc).fetchAll(db)
            return (model, versions)
        }
    }

    func owners(ofBlob sha256: String) async throws(RegistryError) -> BlobOwnership {
        try await read { db in
            BlobOwnership(
                models: try ModelRecord.fetchAll(
                    db, sql: "SELECT * FROM model WHERE name IN (SELECT name FROM version WHERE sha256 = ?)",
                    arguments: [sha256]),
                versions: try Row.fetchAll(
                    db, sql: "SELECT name, version FROM version WHERE sha256 = ?", arguments: [sha256]
                ).map { (model: $0["name"], version: $0["version"]) })
        }
    }

    func referencedBlobs() async throws(RegistryError) -> Set<String> {
        try await read { db in try Set(String.fetchAll(db, sql: "SELECT sha256 FROM version")) }
    }

    /// Whether a version refers to the blob `sha256`; true when the database cannot say. Synchronous: for the
    /// ``BlobStore``'s removals, which run on a thread of their own.
    func isReferenced(_ sha256: String) -> Bool {
        (try? database.pool.read { db in try VersionRecord.filter(Column("sha256") == sha256).fetchCount(db) > 0 })
            ?? true
    }

    func token(hash: String) async throws(RegistryError) -> TokenRecord? {
        try await read { db in try TokenRecord.filter(Column("hash") == hash).fetchOne(db) }
    }

    func tokens() async throws(RegistryError) -> [TokenRecord] {
        try await read { db in try TokenRecord.order(Column("id")).fetchAll(db) }
    }

    func checkReady() async throws(RegistryError) {
        do {
            _ = try await database.pool.read { db in try Int.fetchOne(db, sql: "SELECT 1") }
        } catch {
            throw .unavailable("the SQLite database cannot be read: \(error)")
        }
    }

    // MARK: Changing

    func recordVersion(
        of name: String, blob: StoredBlob, summary: String, isPrivate: Bool?
    ) async throws(RegistryError) -> VersionRecord {
        defer { changes.add(1, ordering: .releasing) }
        do {
            return try await database.pool.write { db in
                var model = try ModelRecord.fetchOne(db, key: name) ?? ModelRecord(name: name)
                let highest =
                    try Int.fetchOne(db, sql: "SELECT MAX(version) FROM version WHERE name = ?", arguments: [name]) ?? 0
                let next = max(model.lastVersion, highest) + 1
                model.latestVersion = next
                model.lastVersion = next
                if let isPrivate { model.isPrivate = isPrivate }
                try model.save(db)
                let record = VersionRecord(
                    name: name, version: next, sha256: blob.sha256, size: blob.size, created: Date(), summary: summary)
                try record.insert(db)
                return record
            }
        } catch {
            throw .storage("the version could not be recorded: \(error)")
        }
    }

    func promote(_ name: String, version: Int) async throws(RegistryError) {
        try await change(name) { db, model in
            guard try VersionRecord.exists(db, key: ["name": name, "version": version]) else {
                throw RegistryError.notFound("\(name) version \(version)")
            }
            model.latestVersion = version
            return nil
        }
    }

    func rollout(_ name: String, version: Int, percent: Int) async throws(RegistryError) {
        try await change(name) { db, model in
            guard try VersionRecord.exists(db, key: ["name": name, "version": version]) else {
                throw RegistryError.notFound("\(name) version \(version)")
            }
            model.rolloutVersion = percent == 0 ? nil : version
            model.rolloutPercent = percent
            return nil
        }
    }

    func deleteVersion(_ name: String, version: Int) async throws(RegistryError) -> VersionRecord {
        let deleted = try await change(name) { db, model in
            guard let record = try VersionRecord.fetchOne(db, key: ["name": name, "version": version]) else {
                throw RegistryError.notFound("\(name) version \(version)")
            }
            try record.delete(db)
            if model.latestVersion == version {
                model.latestVersion = try Int.fetchOne(
                    db, sql: "SELECT MAX(version) FROM version WHERE name = ?", arguments: [name])
            }
            if model.rolloutVersion == version {
                model.rolloutVersion = nil
                model.rolloutPercent = 0
            }
            return record
        }
        guard let deleted else { throw .notFound("\(name) version \(version)") }
        return deleted
    }

    func insertToken(_ token: TokenRecord) async throws(RegistryError) {
        do {
            try await database.pool.write { db in
                var record = token
                try record.insert(db)
            }
        } catch {
            throw .storage("the token could not be stored: \(error)")
        }
    }

    func revokeToken(id: Int64?, hash: String?) async throws(RegistryError) -> TokenRecord {
        let found: TokenRecord?
        do {
            found = try await database.pool.write { db in
                let token =
                    if let id { try TokenRecord.fetchOne(db, key: id) } else {
                        try TokenRecord.filter(Column("hash") == hash ?? "").fetchOne(db)
                    }
                if let token { _ = try token.delete(db) }
                return token
            }
        } catch {
            throw .storage("the token could not be revoked: \(error)")
        }
        guard let found else { throw .notFound(id.map { "token \($0)" } ?? "the token of that file") }
        return found
    }

    func markTokenUsed(id: Int64, at date: Date) async throws(RegistryError) {
        do {
            try await database.pool.write { db in
                try db.execute(sql: "UPDATE token SET lastUsed = ? WHERE id = ?", arguments: [date, id])
            }
        } catch {
            throw .storage("the token's use could not be recorded: \(error)")
        }
    }

    /// Changes the model `name` in one write transaction; returns what `body` returns.
    @discardableResult
    private func change(
        _ name: String, _ body: @escaping @Sendable (Database, inout ModelRecord) throws -> VersionRecord?
    ) async throws(RegistryError) -> VersionRecord? {
        defer { changes.add(1, ordering: .releasing) }
        do {
            return try await database.pool.write { db in
                guard var model = try ModelRecord.fetchOne(db, key: name) else { throw RegistryError.notFound(name) }
                let result = try body(db, &model)
                try model.update(db)
                return result
            }
        } catch let error as RegistryError {
            throw error
        } catch {
            throw .storage("\(error)")
        }
    }

    private func read<T: Sendable>(
        _ body: @escaping @Sendable (Database) throws -> T
    ) async throws(RegistryError) -> T {
        do {
            return try await database.pool.read(body)
        } catch let error as RegistryError {
            throw error
        } catch {
            throw .storage("\(error)")
        }
    }
}
