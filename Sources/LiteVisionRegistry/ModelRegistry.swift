import Crypto
import FoundationEssentials
import LiteVisionRegistryStorage
import LiteVision
import LiteVisionModelStore
import LiteVisionSystem
import Synchronization

/// The embedded model registry, without HTTP: publishing, listing, choosing the version a client gets,
/// promoting, rolling out, deleting, and access tokens. Everything is kept in a data folder: `registry.sqlite`
/// (metadata, ``SQLiteMetadataStore``) and `blobs/` (model files by SHA-256, ``BlobStore``). Its methods are
/// synchronous; ``service`` is the same registry as a ``RegistryService`` (what the HTTP routes use, whatever the
/// storage).
///
/// Opening a registry for serving cleans up after a crash: incoming upload files and blobs that no version
/// refers to are deleted, so a `kill -9` during a publish never leaves a half version.
package final class ModelRegistry: Sendable {
    /// Names: letters, digits, `.`, `_`, `-`; 1 to 64 characters; no `..`.
    package static let maximumNameLength = RegistryName.maximumLength

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
    /// The lock on `registry.lock` of an exclusive registry (closed, and so released, when the registry goes).
    private let lock: DataFolderLock?

    /// Opens (creating it if needed) the registry in `dataFolder`.
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
                blobs.removeOrphansNow(keeping: try metadata.referencedBlobsNow())
            } catch {
                throw .storage("the database cannot be opened: \(error)")
            }
        }
    }

    /// This registry as a ``RegistryService``, for the HTTP routes (it keeps the registry, and so its data folder's
    /// lock, alive).
    package var service: RegistryService { RegistryService(metadata: metadata, blobs: blobs, owner: self) }

    /// Checks a model name.
    package static func validate(name: String) throws(RegistryError) {
        guard RegistryName.isValid(name) else {
            throw .invalidName(name)
        }
    }

    // MARK: Publishing

    /// Publishes the model in `upload` (complete) as the next version of `name`, which becomes its latest.
    /// The file must be a classifier or detector LiteVision accepts. `isPrivate`, when given, makes the model
    /// private (served only with a read token) or public; when nil a new model is public and an existing one
    /// keeps its setting.
    package func publish(
        _ upload: IncomingBlob, as name: String, isPrivate: Bool? = nil
    ) throws(RegistryError) -> PublishedVersion {
        try Self.validate(name: name)
        let summary = try UploadCheck.summary(of: upload)
        // The blob stays pinned (a delete of the same content cannot remove it) until its version is recorded.
        let stored = try blobs.storeNow(upload)
        do {
            let record = try metadata.recordVersionNow(
                of: name, blob: stored, summary: UploadCheck.encoded(summary), isPrivate: isPrivate)
            blobs.releaseNow(stored, recorded: true)
            return PublishedVersion(record, summary: summary)
        } catch {
            blobs.releaseNow(stored, recorded: false)
            throw error
        }
    }

    // MARK: Reading

    /// Every model that has a version, by name.
    package func list() throws(RegistryError) -> [ModelRecord] { try metadata.modelsNow() }

    /// A model and its versions, newest first.
    package func info(_ name: String) throws(RegistryError) -> (model: ModelRecord, versions: [PublishedVersion]) {
        try Self.validate(name: name)
        let (model, versions) = try metadata.modelNow(name)
        return (model, versions.map { PublishedVersion($0) })
    }

    /// The version `clientID` gets: the rolled-out version for the clients whose bucket (0–99, from a hash of the
    /// name and the client id) is below the rollout percentage, else the latest.
    package func version(of name: String, for clientID: String?) throws(RegistryError) -> PublishedVersion {
        let (model, versions) = try info(name)
        guard let version = Self.served(model, versions: versions, to: clientID) else { throw .notFound(name) }
        return version
    }

    /// The version of `model` (with `versions`) that `clientID` gets, as ``version(of:for:)`` chooses it.
    package static func served(
        _ model: ModelRecord, versions: [PublishedVersion], to clientID: String?
    ) -> PublishedVersion? {
        var chosen = model.latestVersion
        if let rollout = model.rolloutVersion, model.rolloutPercent > 0, let clientID,
            bucket(name: model.name, clientID: clientID) < model.rolloutPercent
        {
            chosen = rollout
        }
        return versions.first { $0.version == chosen }
    }

    /// A number that grows with every change of models or versions in this process (publish, promote,
    /// rollout, delete): what the HTTP layer's caches are keyed by. (One server per data folder makes it
    /// complete; tools beside the server change only tokens.)
    package var changeCount: Int { metadata.changeCount }

    /// Whether a client holding `grant` (nil: no token) may read `model`: public models are read by anyone,
    /// private ones with a publish token, a read token for every model, or a read token for that model.
    package static func canRead(_ model: ModelRecord, with grant: TokenGrant?) -> Bool {
        guard model.isPrivate else { return true }
        guard let grant else { return false }
        return grant.role == .publish || grant.model == nil || grant.model == model.name
    }

    /// The models that have a version with the file `sha256`.
    package func owners(ofBlob sha256: String) throws(RegistryError) -> [ModelRecord] {
        try metadata.ownersNow(ofBlob: sha256).models
    }

    /// The versions whose file is `sha256`.
    package func versions(ofBlob sha256: String) throws(RegistryError) -> [(model: String, version: Int)] {
        try metadata.ownersNow(ofBlob: sha256).versions
    }

    /// A stable bucket 0–99 for a client and a model: computed from the name and the client id alone, so every
    /// replica of a registry gives a client the same answer.
    package static func bucket(name: String, clientID: String) -> Int {
        let digest = Array(SHA256.hash(data: Array("\(name)\u{0}\(clientID)".utf8)))
        let value = digest.prefix(8).reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        return Int(value % 100)
    }

    /// The file of a version.
    package func file(of version: PublishedVersion) -> String { blobs.path(of: version.sha256) }

    /// A new upload to write and then ``publish(_:as:isPrivate:)``.
    package func incoming() throws(RegistryError) -> IncomingBlob { try blobs.makeUpload() }

    // MARK: Changing

    /// Makes `version` the latest of `name` (a rollback when it is older).
    package func promote(_ name: String, version: Int) throws(RegistryError) {
        try Self.validate(name: name)
        try metadata.promoteNow(name, version: version)
    }

    /// Serves `version` to `percent` % of clients (0 ends the rollout).
    package func rollout(_ name: String, version: Int, percent: Int) throws(RegistryError) {
        try Self.validate(percent: percent)
        try Self.validate(name: name)
        try metadata.rolloutNow(name, version: version, percent: percent)
    }

    /// Checks a rollout percentage.
    static func validate(percent: Int) throws(RegistryError) {
        guard (0...100).contains(percent) else {
            throw .invalidRequest("the percentage must be 0 to 100, not \(percent)")
        }
    }

    /// Deletes a version; the latest moves to the newest remaining one, a rollout of it ends, and its file goes
    /// when no other version has the same content.
    package func delete(_ name: String, version: Int) throws(RegistryError) {
        try Self.validate(name: name)
        let deleted = try metadata.deleteVersionNow(name, version: version)
        blobs.removeIfUnreferencedNow(deleted.sha256)
    }
}

/// An exclusive `flock` on `<data>/registry.lock`, held while the registry is open.
private final class DataFolderLock: Sendable {
    let descriptor: Int32

    init(_ dataFolder: String) throws(RegistryError) {
        let path = (dataFolder.hasSuffix("/") ? dataFolder : dataFolder + "/") + "registry.lock"
        descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, DataFolderPermissions.fileMode)
        guard descriptor >= 0 else { throw .storage("cannot open \(path): \(errorDescription(errno))") }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            let code = errno
            close(descriptor)
            throw code == EWOULDBLOCK
                ? .storage("another registry server is using \(dataFolder) (it holds registry.lock)")
                : .storage("cannot lock \(path): \(errorDescription(code))")
        }
    }

    deinit { close(descriptor) }
}

/// A published version, as the registry reports it.
package struct PublishedVersion: Codable, Sendable, Equatable {
    package var name: String
    package var version: Int
    package var sha256: String
    package var size: Int
    package var created: Date
    package var summary: ModelSummary?

    package init(_ record: VersionRecord, summary: ModelSummary? = nil) {
        name = record.name
        version = record.version
        sha256 = record.sha256
        size = record.size
        created = record.created
        self.summary = summary ?? (try? JSONDecoder().decode(ModelSummary.self, from: Data(record.summary.utf8)))
    }
}
