import ArgumentParser
import FoundationEssentials
import LiteVisionRegistry
import LiteVisionRegistryPostgres
import LiteVisionSystem
import Logging

/// Where a command's registry keeps its data: `--data DIR` (SQLite and files, the embedded default) or
/// `--database postgres://…` (PostgreSQL, shared by replicas).
struct StorageOptions: ParsableArguments {
    @Option(name: .long, help: "The data folder (created if needed): SQLite and model files, for one server.")
    var data: String?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "A PostgreSQL database for the metadata and the model files, shared by any number of replicas.",
            discussion: """
                postgres://USER[:PASSWORD]@HOST[:PORT][/DATABASE][?sslmode=disable|prefer|require|verify-full\
                &sslrootcert=FILE]; without a password in the URL, the one in \
                \(PostgresDatabaseURL.passwordVariable) is used.
                """, valueName: "url"))
    var database: String?

    @Option(name: .customLong("database-connections"), help: "The most connections to PostgreSQL (1 to 1000).")
    var databaseConnections = 20

    @Option(
        name: .customLong("database-timeout"),
        help:
            "Seconds a request waits for a PostgreSQL connection (and, for the shared check of what changed, for its answer) before it is answered 503."
    )
    var databaseTimeout = 5

    @Option(
        name: .customLong("upload-folder"),
        help: "With --database: where uploads are received before they are stored (default: TMPDIR or /tmp).")
    var uploadFolder: String?

    func validate() throws {
        guard (data == nil) != (database == nil) else {
            throw ValidationError("Give the registry's storage: --data DIR or --database postgres://… (one of them).")
        }
        guard (1...1000).contains(databaseConnections) else {
            throw ValidationError("--database-connections must be 1 to 1000.")
        }
        guard (1...600).contains(databaseTimeout) else { throw ValidationError("--database-timeout must be 1 to 600.") }
        if let database {
            do {
                _ = try PostgresDatabaseURL(database)
            } catch {
                throw ValidationError("--database: \(error.reason).")
            }
        }
    }

    /// The PostgreSQL storage of `--database` (nil with `--data`); `receivingUploads` for a server (a command
    /// that publishes nothing makes no upload folder).
    func postgres(logger: Logger, receivingUploads: Bool = true) throws(RegistryError) -> PostgresRegistryStorage? {
        guard let database else { return nil }
        let url: PostgresDatabaseURL
        do {
            url = try PostgresDatabaseURL(database, environment: ProcessInfo.processInfo.environment)
        } catch {
            throw .invalidRequest("\(error)")
        }
        let temporary = ProcessInfo.processInfo.environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        return try PostgresRegistryStorage(
            url: url, connections: databaseConnections, leaseTimeout: .seconds(databaseTimeout),
            uploadFolder: receivingUploads ? uploadFolder ?? temporary : nil, logger: logger)
    }
}
