import FoundationEssentials
import GRDB
import LiteVisionRegistryStorage
import LiteVisionSystem

/// The embedded registry's storage: a data folder holding `registry.sqlite` (metadata, ``SQLiteMetadataStore``)
/// and `blobs/` (model files by SHA-256, ``BlobStore``). Its registry is ``service``, a ``RegistryService`` on
/// these two stores (what the HTTP routes and the command line use, as they do for PostgreSQL); what is special
/// to a data folder is here: its lock, its cleanup after a crash, its permissions, and ``backup(to:)``.
///
/// Opening a registry for serving cleans up after a crash: incoming upload files and blobs that no version
/// refers to are deleted, so a `kill -9` during a publish never leaves a half version.
package final class ModelRegistry: Sendable {
    /// How a process uses a data folder.
    package enum Access: Sendable {
        /// The one server of the folder: holds `registry.lock` (a second one is refused) and cleans up after a
        /// crash on opening.
        case exclusive
        /// A tool beside a running server (`token create`, `backup`): no lock, no cleanup, which would delete the
        /// server's uploads in progress.
        case shared
    }

    let database: RegistryDatabase
    let metadata: SQLiteMetadataStore
    let blobs: BlobStore
    /// The data folder.
    package let dataFolder: String
    /// What opening the registry made private (``DataFolderPermissions``): paths others could read before, with
    /// their old modes; empty for a folder that was private already or is new.
    package let tightenedPermissions: [String]
    /// The lock on `registry.lock` of an exclusive registry (unlocked and closed when the registry goes).
    private let lock: DataFolderLock?

    /// Opens (creating it if needed) the registry in `dataFolder`. (Blocking file and database work: done once,
    /// when a server or a tool starts, before any request.)
    package init(dataFolder: String, access: Access = .exclusive) throws(RegistryError) {
        if mkdir(dataFolder, DataFolderPermissions.folderMode) != 0 && errno != EEXIST {
            throw .storage("cannot create the data folder \(dataFolder): \(errorDescription(errno))")
        }
        self.dataFolder = dataFolder
        lock = access == .exclusive ? try DataFolderLock(dataFolder) : nil
        tightenedPermissions = DataFolderPermissions.tighten(dataFolder)
        do {
            let path = (dataFolder.hasSuffix("/") ? dataFolder : dataFolder + "/") + "registry.sqlite"
            DataFolderPermissions.createDatabase(path)
            database = try RegistryDatabase(path: path)
        } catch {
            throw .storage("the database cannot be opened: \(error)")
        }
        let metadata = SQLiteMetadataStore(database: database)
        self.metadata = metadata
        do {
            blobs = try BlobStore(dataFolder: dataFolder, isReferenced: { metadata.isReferenced($0) })
        } catch {
            throw .storage("\(error)")
        }
        if access == .exclusive {
            do {
                let referenced = try database.pool.read { db in
                    try Set(String.fetchAll(db, sql: "SELECT sha256 FROM version"))
                }
                blobs.removeOrphanFiles(keeping: referenced)
            } catch {
                throw .storage("the database cannot be opened: \(error)")
            }
        }
    }

    /// This registry as a ``RegistryService`` (it keeps the registry, and so its data folder's lock, alive).
    package var service: RegistryService { RegistryService(embedded: self) }
}
