import Crypto
import FoundationEssentials
import GRDB
import LiteVision
import LiteVisionModelStore
import LiteVisionSystem
import Synchronization

/// The model registry's logic, without HTTP: publishing, listing, choosing the version a client gets,
/// promoting, rolling out, deleting, and access tokens. Everything is kept in a data folder: `registry.sqlite`
/// (metadata) and `blobs/` (model files by SHA-256).
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
    let blobs: BlobStore
    /// Held while an upload is read back and checked.
    private let validation = Mutex(())
    /// Held from committing a blob's file to recording its version, and from deleting a version to removing its
    /// unreferenced file.
    private let blobLifecycle = Mutex(())
    /// See ``changeCount``.
    private let generation = Atomic<Int>(0)
    /// The data folder.
    package let dataFolder: String
    /// The lock on `registry.lock` of an exclusive registry (closed, and so released, when the registry goes).
    private let lock: DataFolderLock?

    /// Opens (creating it if needed) the registry in `dataFolder`.
    package init(dataFolder: String, access: Access = .exclusive) throws(RegistryError) {
        if mkdir(dataFolder, 0o755) != 0 && errno != EEXIST {
            throw .storage("cannot create the data folder \(dataFolder): \(errorDescription(errno))")
        }
        self.dataFolder = dataFolder
        lock = access == .exclusive ? try DataFolderLock(dataFolder) : nil
        do {
            blobs = try BlobStore(dataFolder: dataFolder)
        } catch {
            throw .storage("\(error)")
        }
        do {
            database = try RegistryDatabase(
                path: (dataFolder.hasSuffix("/") ? dataFolder : dataFolder + "/") + "registry.sqlite")
            if access == .exclusive {
                let referenced = try database.pool.read { db in
                    try Set(String.fetchAll(db, sql: "SELECT sha256 FROM version"))
                }
                blobs.removeOrphans(keeping: referenced)
            }
        } catch {
            throw .storage("the database cannot be opened: \(error)")
        }
    }

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
        // The model reader works on bytes in memory: one upload at a time is read back, so memory stays bounded
        // by one upload limit however many publishers there are.
        let checked = validation.withLock { _ -> Result<ModelSummary, RegistryError> in
            let bytes: [UInt8]
            do {
                bytes = try upload.contents()
            } catch {
                return .failure(.storage("\(error)"))
            }
            return ModelSummary.of(bytes).mapError { .notAModel($0.description) }
        }
        let summary = try checked.get()
        // A blob's file is committed and its version recorded under one lock, which a delete also holds from its
        // transaction to the removal of an unreferenced file: a delete can never remove the file of a version being
        // published with the same content.
        return try blobLifecycle.withLock { _ -> Result<PublishedVersion, RegistryError> in
            Result { () throws(RegistryError) in try record(upload, as: name, summary: summary, isPrivate: isPrivate) }
        }.get()
    }

    /// Commits the checked upload's file and records it as the next version of `name`.
    private func record(
        _ upload: IncomingBlob, as name: String, summary: ModelSummary, isPrivate: Bool?
    ) throws(RegistryError) -> PublishedVersion {
        let stored: (sha256: String, size: Int)
        do {
            stored = try blobs.commit(upload)
        } catch {
            throw .storage("\(error)")
        }
        let summaryText = String(decoding: (try? JSONEncoder().encode(summary)) ?? Data(), as: UTF8.self)
        defer { generation.add(1, ordering: .releasing) }
        do {
            return try database.pool.write { db in
                var model =
                    try ModelRecord.fetchOne(db, key: name)
                    ?? ModelRecord(
                        name: name, latestVersion: nil, rolloutVersion: nil, rolloutPercent: 0, isPrivate: false,
                        lastVersion: 0)
                let highest =
                    try Int.fetchOne(db, sql: "SELECT MAX(version) FROM version WHERE name = ?", arguments: [name]) ?? 0
                let next = max(model.lastVersion, highest) + 1
                model.latestVersion = next
                model.lastVersion = next
                if let isPrivate { model.isPrivate = isPrivate }
                try model.save(db)
                let record = VersionRecord(
                    name: name, version: next, sha256: stored.sha256, size: stored.size, created: Date(),
                    summary: summaryText)
                try record.insert(db)
                return PublishedVersion(record, summary: summary)
            }
        } catch {
            throw .storage("the version could not be recorded: \(error)")
        }
    }

    // MARK: Reading

    /// Every model that has a version, by name.
    package func list() throws(RegistryError) -> [ModelRecord] {
        try read { db in try ModelRecord.filter(Column("latestVersion") != nil).order(Column("name")).fetchAll(db) }
    }

    /// A model and its versions, newest first.
    package func info(_ name: String) throws(RegistryError) -> (model: ModelRecord, versions: [PublishedVersion]) {
        try Self.validate(name: name)
        return try read { db in
            guard let model = try ModelRecord.fetchOne(db, key: name) else { throw RegistryError.notFound(name) }
            let versions = try VersionRecord.filter(Column("name") == name).order(Column("version").desc).fetchAll(db)
            return (model, versions.map { PublishedVersion($0) })
        }
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
    package var changeCount: Int { generation.load(ordering: .acquiring) }

    /// Whether a client holding `grant` (nil: no token) may read `model`: public models are read by anyone,
    /// private ones with a publish token, a read token for every model, or a read token for that model.
    package static func canRead(_ model: ModelRecord, with grant: TokenGrant?) -> Bool {
        guard model.isPrivate else { return true }
        guard let grant else { return false }
        return grant.role == .publish || grant.model == nil || grant.model == model.name
    }

    /// The models that have a version with the file `sha256`.
    package func owners(ofBlob sha256: String) throws(RegistryError) -> [ModelRecord] {
        try read { db in
            try ModelRecord.fetchAll(
                db, sql: "SELECT * FROM model WHERE name IN (SELECT name FROM version WHERE sha256 = ?)",
                arguments: [sha256])
        }
    }

    /// The versions whose file is `sha256`.
    package func versions(ofBlob sha256: String) throws(RegistryError) -> [(model: String, version: Int)] {
        try read { db in
            try Row.fetchAll(db, sql: "SELECT name, version FROM version WHERE sha256 = ?", arguments: [sha256]).map {
                (model: $0["name"], version: $0["version"])
            }
        }
    }

    /// A stable bucket 0–99 for a client and a model.
    package static func bucket(name: String, clientID: String) -> Int {
        let digest = Array(SHA256.hash(data: Array("\(name)\u{0}\(clientID)".utf8)))
        let value = digest.prefix(8).reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        return Int(value % 100)
    }

    /// The file of a version.
    package func file(of version: PublishedVersion) -> String { blobs.path(of: version.sha256) }

    /// A new upload to write and then ``publish(_:as:)``.
    package func incoming() throws(RegistryError) -> IncomingBlob {
        do {
            return try blobs.incoming()
        } catch {
            throw .storage("\(error)")
        }
    }

    // MARK: Changing

    /// Makes `version` the latest of `name` (a rollback when it is older).
    package func promote(_ name: String, version: Int) throws(RegistryError) {
        try change(name) { db, model in
            guard try VersionRecord.exists(db, key: ["name": name, "version": version]) else {
                throw RegistryError.notFound("\(name) version \(version)")
            }
            model.latestVersion = version
        }
    }

    /// Serves `version` to `percent` % of clients (0 ends the rollout).
    package func rollout(_ name: String, version: Int, percent: Int) throws(RegistryError) {
        guard (0...100).contains(percent) else {
            throw .invalidRequest("the percentage must be 0 to 100, not \(percent)")
        }
        try change(name) { db, model in
            guard try VersionRecord.exists(db, key: ["name": name, "version": version]) else {
                throw RegistryError.notFound("\(name) version \(version)")
            }
            model.rolloutVersion = percent == 0 ? nil : version
            model.rolloutPercent = percent
        }
    }

    /// Deletes a version; the latest moves to the newest remaining one, a rollout of it ends, and its file goes
    /// when no other version has the same content.
    package func delete(_ name: String, version: Int) throws(RegistryError) {
        try blobLifecycle.withLock { _ -> Result<Void, RegistryError> in
            Result { () throws(RegistryError) in try deleteHoldingBlobLock(name, version: version) }
        }.get()
    }

    private func deleteHoldingBlobLock(_ name: String, version: Int) throws(RegistryError) {
        var orphan: String?
        try change(name) { db, model in
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
            if try VersionRecord.filter(Column("sha256") == record.sha256).fetchCount(db) == 0 {
                orphan = record.sha256
            }
        }
        if let orphan { blobs.remove(orphan) }
    }

    private func change(_ name: String, _ body: (Database, inout ModelRecord) throws -> Void) throws(RegistryError) {
        try Self.validate(name: name)
        defer { generation.add(1, ordering: .releasing) }
        do {
            try database.pool.write { db in
                guard var model = try ModelRecord.fetchOne(db, key: name) else { throw RegistryError.notFound(name) }
                try body(db, &model)
                try model.update(db)
            }
        } catch let error as RegistryError {
            throw error
        } catch {
            throw .storage("\(error)")
        }
    }

    private func read<T>(_ body: (Database) throws -> T) throws(RegistryError) -> T {
        do {
            return try database.pool.read(body)
        } catch let error as RegistryError {
            throw error
        } catch {
            throw .storage("\(error)")
        }
    }
}

/// An exclusive `flock` on `<data>/registry.lock`, held while the registry is open.
private final class DataFolderLock: Sendable {
    let descriptor: Int32

    init(_ dataFolder: String) throws(RegistryError) {
        let path = (dataFolder.hasSuffix("/") ? dataFolder : dataFolder + "/") + "registry.lock"
        descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
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

    init(_ record: VersionRecord, summary: ModelSummary? = nil) {
        name = record.name
        version = record.version
        sha256 = record.sha256
        size = record.size
        created = record.created
        self.summary = summary ?? (try? JSONDecoder().decode(ModelSummary.self, from: Data(record.summary.utf8)))
    }
}

/// What can go wrong in the registry, each with the HTTP status it is answered with.
package enum RegistryError: Error, Sendable, Equatable, CustomStringConvertible {
    case invalidName(String)
    case notFound(String)
    case notAModel(String)
    case tooLarge(limit: Int)
    case invalidRequest(String)
    case unauthorized(String)
    case forbidden(String)
    case storage(String)

    /// The HTTP status of the error.
    package var status: Int {
        switch self {
        case .invalidName, .invalidRequest: 400
        case .unauthorized: 401
        case .forbidden: 403
        case .notFound: 404
        case .tooLarge: 413
        case .notAModel: 422
        case .storage: 500
        }
    }

    package var description: String {
        switch self {
        case .invalidName(let name):
            "invalid model name \"\(name.prefix(80))\": use 1 to \(ModelRegistry.maximumNameLength) letters, digits, '.', '_' or '-', and no '..'"
        case .notFound(let what): "\(what) was not found"
        case .notAModel(let reason): "the upload is not a model LiteVision can use: \(reason)"
        case .tooLarge(let limit): "the upload is larger than the \(limit)-byte limit"
        case .invalidRequest(let reason): reason
        case .unauthorized(let reason): reason
        case .forbidden(let reason): reason
        case .storage(let reason): "the registry could not store or read data: \(reason)"
        }
    }
}
