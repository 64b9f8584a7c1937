import Crypto
import FoundationEssentials
import GRDB
import LiteVisionModelStore
import LiteVisionSystem

extension ModelRegistry {
    /// Copies the registry into the new folder `destination` while it keeps serving, consistently however fast it
    /// changes: one snapshot of the database and of the model files it names, then a copy of that snapshot.
    ///
    /// The snapshot is taken in one write transaction on the live database (the server's changes wait for it, a few
    /// milliseconds): SQLite's online backup of the database, and a hard link to every model file it refers to in
    /// `<data>/.backup-<pid>-<random>`. A file a version refers to is never removed by the server, so every link is
    /// made; the links keep the files the snapshot names even if the server deletes their versions while they are
    /// copied. Each file is then copied, its SHA-256 computed on the way and compared with its name: a corrupted
    /// file fails the backup, naming the file and its versions, instead of going into the copy.
    ///
    /// The copy is made in a new folder beside it, `destination.partial-<pid>-<random>`, and renamed to
    /// `destination` only when complete, so a backup that fails or is interrupted never looks like a finished one
    /// (the leftover `.partial-…` folder, and `.backup-…` folder of links in the data folder, of an interrupted
    /// backup may be deleted by hand). `destination` must not exist: a backup never overwrites anything. The copy's
    /// folders are `0700` and its files `0600`, as in the data folder.
    ///
    /// Returns the number of versions and blobs copied. The copy runs on a thread of its own (``DedicatedThread``).
    package func backup(to destination: String) async throws(RegistryError) -> (versions: Int, blobs: Int) {
        let done = await DedicatedThread.run { [self] in
            Result { () throws(RegistryError) in try copy(to: destination) }
        }
        return try done.get()
    }

    /// ``backup(to:)``, synchronously.
    private func copy(to destination: String) throws(RegistryError) -> (versions: Int, blobs: Int) {
        // An empty path would build the copy in the current folder and then fail to rename it.
        guard !destination.isEmpty else { throw .invalidRequest("the backup folder's path is empty") }
        var existing = stat()
        guard lstat(destination, &existing) != 0 else {
            throw .invalidRequest("\(destination) exists: a backup goes to a new folder and never overwrites one")
        }
        // Folders of its own, made here (mkdir fails if anything is there): nothing that exists is ever removed.
        let suffix = "-\(getpid())-" + String(UInt64.random(in: 0...UInt64.max), radix: 36)
        let partial = destination + ".partial" + suffix
        let links = (dataFolder.hasSuffix("/") ? dataFolder : dataFolder + "/") + ".backup" + suffix
        let mode = DataFolderPermissions.folderMode
        guard mkdir(partial, mode) == 0, mkdir(partial + "/blobs", mode) == 0 else {
            throw .storage("cannot create \(partial): \(errorDescription(errno))")
        }
        guard mkdir(links, mode) == 0 else {
            let code = errno
            try? FileManager.default.removeItem(atPath: partial)
            throw .storage("cannot create \(links) (the backup links the model files there): \(errorDescription(code))")
        }
        defer { try? FileManager.default.removeItem(atPath: links) }
        let result: (versions: Int, blobs: Int)
        do {
            let snapshot = try snapshot(into: partial + "/registry.sqlite", linkingBlobsInto: links)
            for sha256 in snapshot.blobs {
                try copyChecked(links + "/" + sha256, to: partial + "/blobs/" + sha256, sha256: sha256)
            }
            result = (snapshot.versions, snapshot.blobs.count)
        } catch {
            try? FileManager.default.removeItem(atPath: partial)
            throw error
        }
        AtomicFile.syncFolder(partial + "/blobs")
        AtomicFile.syncFolder(partial)
        guard rename(partial, destination) == 0 else {
            throw .storage("cannot rename \(partial) to \(destination): \(errorDescription(errno))")
        }
        AtomicFile.syncFolder(containing: destination)
        return result
    }

    /// The database copied to `databasePath` and every blob it refers to linked into `links`, in one write
    /// transaction on the live database (no version can be recorded or deleted meanwhile, so the server removes
    /// none of those blobs). Returns the number of versions and the blobs.
    private func snapshot(
        into databasePath: String, linkingBlobsInto links: String
    ) throws(RegistryError) -> (versions: Int, blobs: [String]) {
        do {
            DataFolderPermissions.createDatabase(databasePath)
            let copy = try DatabaseQueue(path: databasePath)
            defer { try? copy.close() }
            // The copy is read through a connection of its own: while the pool's writer holds the write lock, it
            // reads the last committed state, the one the links below are made for.
            var readOnly = Configuration()
            readOnly.readonly = true
            let source = try DatabaseQueue(path: database.pool.path, configuration: readOnly)
            defer { try? source.close() }
            return try database.pool.writeWithoutTransaction { db in
                var snapshot: (versions: Int, blobs: [String]) = (0, [])
                try db.inTransaction(.immediate) {
                    try source.backup(to: copy)
                    snapshot.versions = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM version") ?? 0
                    snapshot.blobs = try String.fetchAll(db, sql: "SELECT DISTINCT sha256 FROM version")
                    for sha256 in snapshot.blobs where link(blobs.path(of: sha256), links + "/" + sha256) != 0 {
                        let code = errno
                        let owner = try Row.fetchOne(
                            db, sql: "SELECT name, version FROM version WHERE sha256 = ?", arguments: [sha256])
                        let named = owner.map { "version \($0["version"] as Int) of model \($0["name"] as String)" }
                        throw RegistryError.storage(
                            code == ENOENT
                                ? "\(named ?? "a version") refers to the model file \(blobs.path(of: sha256)), which is missing; delete that version or restore the file, then back up again"
                                : "cannot link \(blobs.path(of: sha256)) into \(links): \(errorDescription(code))")
                    }
                    return .commit
                }
                return snapshot
            }
        } catch let error as RegistryError {
            throw error
        } catch {
            throw .storage("the database backup failed: \(error)")
        }
    }

    /// Copies the blob at `source` through a temporary file (fsynced, renamed), in 1 MiB pieces, checking that
    /// its SHA-256 is `sha256`.
    private func copyChecked(_ source: String, to target: String, sha256: String) throws(RegistryError) {
        let input = open(source, O_RDONLY | O_CLOEXEC)
        guard input >= 0 else { throw .storage("cannot read \(source): \(errorDescription(errno))") }
        defer { close(input) }
        let file: AtomicFile
        do {
            file = try AtomicFile(path: target, permissions: DataFolderPermissions.fileMode)
        } catch {
            throw .storage("\(error)")
        }
        var hash = SHA256()
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        while true {
            let count = buffer.withUnsafeMutableBytes { Platform.read(input, $0.baseAddress!, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count >= 0 else {
                file.discard()
                throw .storage("cannot read \(source): \(errorDescription(errno))")
            }
            if count == 0 { break }
            let written = buffer.withUnsafeBytes { bytes in
                let piece = UnsafeRawBufferPointer(rebasing: bytes.prefix(count))
                hash.update(bufferPointer: piece)
                return Result { () throws(SystemError) in try file.write(piece) }
            }
            if case .failure(let error) = written {
                file.discard()
                throw .storage("\(error)")
            }
        }
        let actual = SHA256Digest.hex(hash.finalize())
        guard actual == sha256 else {
            file.discard()
            let rows = try? database.pool.read { db in
                try Row.fetchAll(db, sql: "SELECT name, version FROM version WHERE sha256 = ?", arguments: [sha256])
            }
            let owners = (rows ?? []).map { "\($0["name"] as String) version \($0["version"] as Int)" }
            throw .storage(
                "the model file \(blobs.path(of: sha256)) is corrupted: its SHA-256 is \(actual), not its name "
                    + "(the file of \(owners.isEmpty ? "no version now" : owners.joined(separator: ", "))); "
                    + "restore it from an earlier backup or publish the model again, then back up again")
        }
        do {
            try file.commit()
        } catch {
            throw .storage("\(error)")
        }
    }
}
