import FoundationEssentials
import LiteVisionRegistryStorage
import LiteVisionSystem
import Logging
import PostgresNIO
import ServiceLifecycle
import Synchronization

/// A registry's storage in PostgreSQL: ``metadata`` and ``blobs`` on one connection pool, for any number of
/// replicas (`litevision registry serve --database postgres://…`).
///
/// Run ``services`` (in the server's service group): the connection pool, and the start-up work, which applies
/// the migrations as soon as the database answers (retrying while it does not: the server listens meanwhile, its
/// `/ready` answering 503) and then removes blobs that interrupted publishes left without a version. Stopping the
/// group stops both, after the server's running requests.
package final class PostgresRegistryStorage: Sendable {
    /// Where the database is.
    package let url: PostgresDatabaseURL
    /// Models, versions, tokens.
    package let metadata: PostgresMetadataStore
    /// Model files, in chunks.
    package let blobs: PostgresBlobStore
    let database: PostgresDatabase

    /// Storage on the database at `url`, with at most `connections` connections (1 to 1000), waiting at most
    /// `leaseTimeout` for one; uploads are received in a folder of this process's own inside `uploadFolder` (nil:
    /// this process receives no uploads, and makes no folder).
    package init(
        url: PostgresDatabaseURL, connections: Int = 20, leaseTimeout: Duration = .seconds(5),
        uploadFolder: String?, logger: Logger
    ) throws(RegistryError) {
        self.url = url
        var configuration: PostgresClient.Configuration
        do {
            configuration = try url.clientConfiguration()
        } catch {
            throw .invalidRequest("the database URL's TLS settings cannot be used: \(error)")
        }
        configuration.options.maximumConnections = max(1, min(connections, 1000))
        let client = PostgresClient(configuration: configuration, backgroundLogger: logger)
        database = PostgresDatabase(client: client, logger: logger, leaseTimeout: leaseTimeout)
        metadata = PostgresMetadataStore(database: database)
        var folder: String?
        if let uploadFolder { folder = try UploadFolder.make(in: uploadFolder, logger: logger) }
        blobs = PostgresBlobStore(database: database, uploadFolder: folder)
    }

    /// Removes this process's upload folder and anything left in it (when the server has stopped).
    package func removeUploadFolder() {
        guard let folder = blobs.uploadFolder else { return }
        UploadFolder.remove(folder)
    }

    /// The connection pool and the start-up work (migrations, then removal of orphaned blobs), to run in a service
    /// group.
    package var services: [any Service] { [database.client, StartupService(storage: self)] }

    /// Runs `body` while the connection pool runs (for a command that is not a server: `token create`).
    package func withPool<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) async throws -> T {
        try await withThrowingTaskGroup(of: T?.self) { group in
            group.addTask {
                await self.database.client.run()
                return nil
            }
            defer { group.cancelAll() }
            let result = try await body()
            group.cancelAll()
            return result
        }
    }

    /// Applies the migrations not applied yet (``PostgresMigrations``); returns how many were applied.
    package func migrate() async throws(RegistryError) -> Int {
        let logger = database.logger
        return try await database.withConnection("migrating the registry's schema") { connection in
            do {
                return try await PostgresMigrations.migrate(on: connection, logger: logger)
            } catch let error as PostgresSchemaError {
                throw RegistryError.storage(error.reason)
            }
        }
    }

    /// Migrates when the database answers (retrying every few seconds until it does), removes orphaned blobs, then
    /// waits for the group to stop.
    struct StartupService: Service {
        let storage: PostgresRegistryStorage

        func run() async throws {
            // Stopping the server ends the start-up work where it is (a pause, a connection being waited for).
            await cancelWhenGracefulShutdown { await self.start() }
            // A service that returns would stop the group: wait for the shutdown.
            try? await gracefulShutdown()
        }

        private func start() async {
            let logger = storage.database.logger
            var pause = Duration.milliseconds(200)
            while !Task.isCancelled {
                do {
                    let applied = try await storage.migrate()
                    logger.info(
                        "database ready",
                        metadata: [
                            "database": "\(storage.url)", "migrationsApplied": "\(applied)",
                            "schema": "\(PostgresMigrations.current)",
                        ])
                    break
                } catch {
                    logger.warning(
                        "database not ready; retrying", metadata: ["database": "\(storage.url)", "reason": "\(error)"])
                    try? await Task.sleep(for: pause)
                    pause = min(pause * 2, .seconds(5))
                }
            }
            if !Task.isCancelled {
                do {
                    let removed = await storage.blobs.removeOrphans(
                        keeping: try await storage.metadata.referencedBlobs())
                    if removed > 0 { logger.info("removed orphaned blobs", metadata: ["count": "\(removed)"]) }
                } catch {
                    logger.warning("orphaned blobs not removed", metadata: ["reason": "\(error)"])
                }
            }
        }
    }
}

/// The folder where a process receives uploads before storing them in the database:
/// `<parent>/litevision-registry-uploads-<pid>`, private to the process (mode 0700). Folders of processes that no
/// longer run (a replica killed during an upload) are removed when the next one starts. Liveness is asked of this
/// machine's (this PID namespace's) processes, so `<parent>` must not be shared by replicas on other machines or
/// in other containers (a pod's own `emptyDir`, as in deploy/kubernetes, is not).
enum UploadFolder {
    static let prefix = "litevision-registry-uploads-"

    static func make(in parent: String, logger: Logger) throws(RegistryError) -> String {
        let parent = parent.hasSuffix("/") && parent.count > 1 ? String(parent.dropLast()) : parent
        for name in (try? FileManager.default.contentsOfDirectory(atPath: parent)) ?? [] where name.hasPrefix(prefix) {
            guard let pid = Int32(name.dropFirst(prefix.count)), pid > 0, pid != getpid() else { continue }
            let folder = parent + "/" + name
            // Only this user's own folders (never a link planted in a shared parent such as /tmp).
            if kill(pid, 0) != 0 && errno == ESRCH && isPrivateFolder(folder) {
                removeIncomingFiles(in: folder)
                if rmdir(folder) == 0 {
                    logger.info("removed a dead process's upload folder", metadata: ["folder": "\(folder)"])
                }
            }
        }
        let folder = parent + "/" + prefix + String(getpid())
        if mkdir(folder, 0o700) != 0 && errno != EEXIST {
            throw .storage("cannot create the upload folder \(folder): \(errorDescription(errno))")
        }
        // A folder that was already there must be this user's, private, and not a link: in a shared parent another
        // user could have made it to read the uploads.
        guard isPrivateFolder(folder) else {
            throw .storage(
                "the upload folder \(folder) exists but is not a private folder of this user (mode 0700, not a link); "
                    + "remove it or choose another --upload-folder")
        }
        // Left by an earlier process with this PID (a restarted container is PID 1 again); nothing uses them now.
        removeIncomingFiles(in: folder)
        return folder
    }

    /// Whether `folder` is a directory (not a symbolic link) owned by this user and closed to everyone else.
    static func isPrivateFolder(_ folder: String) -> Bool {
        var info = stat()
        return lstat(folder, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR && info.st_uid == geteuid()
            && (info.st_mode & 0o077) == 0
    }

    /// Removes `folder`, this process's own, with the incomplete uploads in it.
    static func remove(_ folder: String) {
        guard isPrivateFolder(folder) else { return }
        removeIncomingFiles(in: folder)
        rmdir(folder)
    }

    /// Deletes the incomplete uploads (`.incoming-*`) in `folder`.
    private static func removeIncomingFiles(in folder: String) {
        for file in (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        where file.hasPrefix(".incoming-") {
            unlink(folder + "/" + file)
        }
    }
}
