import Logging
import PostgresNIO

/// The registry's schema in PostgreSQL, as numbered migrations applied in order, each in one transaction with the
/// number recorded in `registry_migrations`. Replicas starting together take a transaction-scoped advisory lock
/// first, so each migration is applied once.
///
/// Tables (all prefixed `registry_`, so the database may be shared):
/// - `registry_model`, `registry_version`, `registry_token`: what the SQLite schema holds, with the same meaning
///   (a token's `expires` and `last_used` since migration 2);
/// - `registry_blob` (one row per model file: SHA-256, size, chunk size) and `registry_blob_chunk` (the bytes,
///   `index` 0, 1, 2… of `chunk_size` bytes, the last one shorter). A blob row and all of its chunks are inserted in
///   one transaction, so a blob that is listed is complete; chunks go with their blob (`ON DELETE CASCADE`); a
///   version refers to its blob (a foreign key), so a blob in use cannot be deleted, and a version cannot be
///   recorded for a blob that was deleted;
/// - `registry_state`: one row whose `generation` every change of models or versions increases (what replicas'
///   caches are keyed by).
enum PostgresMigrations {
    /// The advisory lock key taken while migrating ("LVREGMIG").
    static let lockKey: Int64 = 0x4C56_5245_474D_4947

    /// The migrations, in order: a name, and its statements.
    static let all: [(name: String, statements: [String])] = [
        (
            "models, versions, blobs in chunks, tokens, generation",
            [
                """
                CREATE TABLE registry_model (
                    name text PRIMARY KEY,
                    latest_version bigint,
                    rollout_version bigint,
                    rollout_percent integer NOT NULL DEFAULT 0 CHECK (rollout_percent BETWEEN 0 AND 100),
                    is_private boolean NOT NULL DEFAULT false,
                    last_version bigint NOT NULL DEFAULT 0)
                """,
                """
                CREATE TABLE registry_blob (
                    sha256 text PRIMARY KEY CHECK (sha256 ~ '^[0-9a-f]{64}$'),
                    size bigint NOT NULL CHECK (size >= 0),
                    chunk_size integer NOT NULL CHECK (chunk_size > 0),
                    created timestamptz NOT NULL DEFAULT now())
                """,
                """
                CREATE TABLE registry_blob_chunk (
                    sha256 text NOT NULL REFERENCES registry_blob ON DELETE CASCADE,
                    index integer NOT NULL CHECK (index >= 0),
                    data bytea NOT NULL,
                    PRIMARY KEY (sha256, index))
                """,
                // Model files are mostly compressed already: stored out of line without trying to compress them.
                "ALTER TABLE registry_blob_chunk ALTER COLUMN data SET STORAGE EXTERNAL",
                """
                CREATE TABLE registry_version (
                    name text NOT NULL REFERENCES registry_model ON DELETE CASCADE,
                    version bigint NOT NULL,
                    sha256 text NOT NULL REFERENCES registry_blob,
                    size bigint NOT NULL,
                    created timestamptz NOT NULL,
                    summary text NOT NULL,
                    PRIMARY KEY (name, version))
                """,
                "CREATE INDEX registry_version_sha256 ON registry_version (sha256)",
                """
                CREATE TABLE registry_token (
                    id bigserial PRIMARY KEY,
                    hash text NOT NULL UNIQUE,
                    role text NOT NULL,
                    model text,
                    created timestamptz NOT NULL)
                """,
                """
                CREATE TABLE registry_state (
                    id integer PRIMARY KEY CHECK (id = 1),
                    generation bigint NOT NULL)
                """,
                "INSERT INTO registry_state (id, generation) VALUES (1, 0)",
            ]
        ),
        (
            "tokens expire and record their last use",
            [
                "ALTER TABLE registry_token ADD COLUMN expires timestamptz",
                "ALTER TABLE registry_token ADD COLUMN last_used timestamptz",
            ]
        ),
    ]

    /// The schema version this program needs.
    static var current: Int { all.count }

    /// Applies the migrations not applied yet, on `connection`; returns how many were applied.
    static func migrate(on connection: PostgresConnection, logger: Logger) async throws -> Int {
        try await connection.withTransaction(logger: logger) { connection in
            try await connection.query("SELECT pg_advisory_xact_lock(\(lockKey))", logger: logger)
            try await connection.query(
                """
                CREATE TABLE IF NOT EXISTS registry_migrations (
                    version integer PRIMARY KEY, name text NOT NULL, applied timestamptz NOT NULL DEFAULT now())
                """, logger: logger)
            var applied = 0
            for try await version in try await connection.query(
                "SELECT COALESCE(MAX(version), 0) FROM registry_migrations", logger: logger
            ).decode(Int.self) {
                applied = version
            }
            guard applied <= current else {
                throw PostgresSchemaError(
                    reason:
                        "the database's registry schema is version \(applied), newer than this program's \(current): run a newer litevision-registry"
                )
            }
            for (index, migration) in all.enumerated() where index + 1 > applied {
                for statement in migration.statements {
                    try await connection.query(PostgresQuery(unsafeSQL: statement), logger: logger)
                }
                try await connection.query(
                    "INSERT INTO registry_migrations (version, name) VALUES (\(index + 1), \(migration.name))",
                    logger: logger)
                logger.info("migrated", metadata: ["version": "\(index + 1)", "name": "\(migration.name)"])
            }
            return current - applied
        }
    }
}

/// The database's schema cannot be used by this program.
struct PostgresSchemaError: Error, CustomStringConvertible {
    var reason: String
    var description: String { reason }
}
