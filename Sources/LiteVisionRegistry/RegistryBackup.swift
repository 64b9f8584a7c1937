import FoundationEssentials
import GRDB
import LiteVisionSystem

extension ModelRegistry {
    /// Copies the registry into the new folder `destination` while it keeps serving: the database through
    /// SQLite's online backup (a consistent snapshot), then every blob that snapshot refers to.
    ///
    /// The copy is made in a new folder beside it, `destination.partial-<pid>-<random>`, and renamed to
    /// `destination` only when complete, so a backup that fails or is interrupted never looks like a finished one
    /// (a leftover `.partial-…` folder of an interrupted backup may be deleted by hand). `destination` must not exist: a backup
    /// never overwrites anything. A blob deleted by the server between the snapshot and its copy makes the
    /// backup take a new snapshot (up to three times).
    ///
    /// Returns the number of versions and blobs copied.
    package func backup(to destination: String) throws(RegistryError) -> (versions: Int, blobs: Int) {
        // An empty path would build the copy in the current folder and then fail to rename it.
        guard !destination.isEmpty else { throw .invalidRequest("the backup folder's path is empty") }
        var existing = stat()
        guard lstat(destination, &existing) != 0 else {
            throw .invalidRequest("\(destination) exists: a backup goes to a new folder and never overwrites one")
        }
        // A folder of its own, made here (mkdir fails if anything is there): nothing that exists is ever removed.
        let partial = destination + ".partial-\(getpid())-" + String(UInt64.random(in: 0...UInt64.max), radix: 36)
        guard mkdir(partial, 0o755) == 0, mkdir(partial + "/blobs", 0o755) == 0 else {
            throw .storage("cannot create \(partial): \(errorDescription(errno))")
        }
        var result: (versions: Int, blobs: Int)?
        for _ in 0..<3 where result == nil {
            do {
                result = try snapshot(into: partial)
            } catch {
                try? FileManager.default.removeItem(atPath: partial)
                throw error
            }
        }
        guard let result else {
            try? FileManager.default.removeItem(atPath: partial)
            throw .storage("the registry changed under the backup three times in a row; try again")
        }
        AtomicFile.syncFolder(partial + "/blobs")
        AtomicFile.syncFolder(partial)
        guard rename(partial, destination) == 0 else {
            throw .storage("cannot rename \(partial) to \(destination): \(errorDescription(errno))")
        }
        AtomicFile.syncFolder(containing: destination)
        return result
    }

    /// One attempt: the database snapshot, then its blobs; nil when a blob vanished in between.
    private func snapshot(into folder: String) throws(RegistryError) -> (versions: Int, blobs: Int)? {
        let databasePath = folder + "/registry.sqlite"
        let referenced: [String]
        let versions: Int
        do {
            for suffix in ["", "-wal", "-shm"] { unlink(databasePath + suffix) }
            let copy = try DatabaseQueue(path: databasePath)
            try database.pool.backup(to: copy)
            (referenced, versions) = try copy.read { db in
                (
                    try String.fetchAll(db, sql: "SELECT DISTINCT sha256 FROM version"),
                    try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM version") ?? 0
                )
            }
            try copy.close()
        } catch {
            throw .storage("the database backup failed: \(error)")
        }
        for sha256 in referenced {
            let target = folder + "/blobs/" + sha256
            if (try? FileContents.requireRegularFile(atPath: target)) != nil { continue }  // copied last attempt
            let source = blobs.path(of: sha256)
            guard let size = try? FileContents.requireRegularFile(atPath: source) else {
                // Deleted since the snapshot (take a new one), or missing from the live registry too (say which).
                if let owner = try? self.versions(ofBlob: sha256).first {
                    throw .storage(
                        "version \(owner.version) of model \(owner.model) refers to the model file \(source), which is missing; delete that version or restore the file, then back up again"
                    )
                }
                return nil
            }
            try Self.copy(source, to: target, size: size)
        }
        return (versions, referenced.count)
    }

    /// Copies a blob through a temporary file (fsynced, renamed), in 1 MiB pieces.
    private static func copy(_ source: String, to target: String, size: Int) throws(RegistryError) {
        let input = open(source, O_RDONLY | O_CLOEXEC)
        guard input >= 0 else { throw .storage("cannot read \(source): \(errorDescription(errno))") }
        defer { close(input) }
        let file: AtomicFile
        do {
            file = try AtomicFile(path: target)
        } catch {
            throw .storage("\(error)")
        }
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        var copied = 0
        while copied < size {
            let count = buffer.withUnsafeMutableBytes { Platform.read(input, $0.baseAddress!, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else {
                file.discard()
                throw .storage("\(source) ended at \(copied) of \(size) bytes")
            }
            let written = buffer.withUnsafeBytes { bytes in
                Result { () throws(SystemError) in try file.write(UnsafeRawBufferPointer(rebasing: bytes.prefix(count)))
                }
            }
            if case .failure(let error) = written {
                file.discard()
                throw .storage("\(error)")
            }
            copied += count
        }
        do {
            try file.commit()
        } catch {
            throw .storage("\(error)")
        }
    }
}
