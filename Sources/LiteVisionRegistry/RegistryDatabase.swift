import FoundationEssentials
import GRDB
import LiteVisionRegistryStorage

/// The registry's metadata in SQLite (`<data>/registry.sqlite`, WAL mode), through GRDB: models, their
/// versions, and access tokens (stored as SHA-256 hashes only).
///
/// Every change is one write transaction, so versions of a name are numbered 1, 2, 3… without gaps or
/// duplicates even when publishers race, and the "latest" pointer and the rollout change atomically.
final class RegistryDatabase: Sendable {
    let pool: DatabasePool

    init(path: String) throws {
        var configuration = Configuration()
        configuration.busyMode = .timeout(10)
        pool = try DatabasePool(path: path, configuration: configuration)
        try Self.migrator.migrate(pool)
    }

    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("models, versions, tokens") { db in
            try db.create(table: "model") { table in
                table.primaryKey("name", .text)
                table.column("latestVersion", .integer)
                table.column("rolloutVersion", .integer)
                table.column("rolloutPercent", .integer).notNull().defaults(to: 0)
                table.column("isPrivate", .boolean).notNull().defaults(to: false)
            }
            try db.create(table: "version") { table in
                table.column("name", .text).notNull().references("model", onDelete: .cascade)
                table.column("version", .integer).notNull()
                table.column("sha256", .text).notNull()
                table.column("size", .integer).notNull()
                table.column("created", .datetime).notNull()
                table.column("summary", .text).notNull()
                table.primaryKey(["name", "version"])
            }
            try db.create(table: "token") { table in
                table.autoIncrementedPrimaryKey("id")
                table.column("hash", .text).notNull().unique()
                table.column("role", .text).notNull()
                table.column("model", .text)
                table.column("created", .datetime).notNull()
            }
        }
        migrator.registerMigration("version numbers are never reused") { db in
            // The highest version ever given to a name: a deleted version's number is not given again, so a
            // number always means one file.
            try db.alter(table: "model") { table in
                table.add(column: "lastVersion", .integer).notNull().defaults(to: 0)
            }
            try db.execute(
                sql:
                    "UPDATE model SET lastVersion = COALESCE((SELECT MAX(version) FROM version WHERE version.name = model.name), 0)"
            )
        }
        migrator.registerMigration("tokens expire and record their last use") { db in
            try db.alter(table: "token") { table in
                table.add(column: "expires", .datetime)
                table.add(column: "lastUsed", .datetime)
            }
        }
        return migrator
    }
}

// The stored records (LiteVisionRegistryStorage) as GRDB records of the tables above.

extension ModelRecord: FetchableRecord, PersistableRecord {
    package static let databaseTableName = "model"
}

extension VersionRecord: FetchableRecord, PersistableRecord {
    package static let databaseTableName = "version"
}

extension TokenRecord: FetchableRecord, MutablePersistableRecord {
    package static let databaseTableName = "token"

    package mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
}
