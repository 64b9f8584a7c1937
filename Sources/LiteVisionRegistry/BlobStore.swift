import Crypto
import FoundationEssentials
import LiteVisionModelStore
import LiteVisionSystem

/// Model files on disk, named by their SHA-256: `<data>/blobs/<sha256>`.
///
/// An upload is streamed into `blobs/.incoming-<pid>-<random>` (never whole in memory), hashed on the way, and
/// fsynced; only then is it renamed to its content address. A file under its final name is therefore always
/// complete and correct; the same content uploaded twice is stored once. ``removeOrphans(keeping:)`` deletes
/// what a crash left behind: incoming files, and blobs no version refers to.
struct BlobStore: Sendable {
    /// The folder of the blobs.
    let folder: String

    init(dataFolder: String) throws(SystemError) {
        folder = (dataFolder.hasSuffix("/") ? dataFolder : dataFolder + "/") + "blobs"
        if mkdir(folder, 0o755) != 0 && errno != EEXIST { throw .fromErrno(.write, path: folder) }
    }

    /// The file of the blob `sha256` (64 lowercase hexadecimal digits, checked by the caller).
    func path(of sha256: String) -> String { folder + "/" + sha256 }

    /// A new incoming file: write it, then ``commit(_:)`` it.
    func incoming() throws(SystemError) -> IncomingBlob {
        let path = folder + "/.incoming-\(getpid())-" + String(UInt64.random(in: 0...UInt64.max), radix: 36)
        let descriptor = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw .fromErrno(.write, path: path) }
        return IncomingBlob(path: path, descriptor: descriptor)
    }

    /// Moves a complete incoming file to its content address and returns its SHA-256 and size.
    func commit(_ blob: IncomingBlob) throws(SystemError) -> (sha256: String, size: Int) {
        let sha256 = SHA256Digest.hex(blob.hash.finalize())
        if fsync(blob.descriptor) != 0 { throw .fromErrno(.write, path: blob.path) }
        guard rename(blob.path, path(of: sha256)) == 0 else { throw .fromErrno(.write, path: path(of: sha256)) }
        blob.committed = true
        AtomicFile.syncFolder(folder)
        return (sha256, blob.size)
    }

    /// Deletes incoming files and every blob whose SHA-256 is not in `referenced`; returns how many were removed.
    @discardableResult
    func removeOrphans(keeping referenced: Set<String>) -> Int {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        var removed = 0
        for name in names where name.hasPrefix(".incoming-") || !referenced.contains(name) {
            if unlink(folder + "/" + name) == 0 { removed += 1 }
        }
        return removed
    }

    /// Deletes the blob `sha256` (when no version refers to it any more).
    func remove(_ sha256: String) {
        unlink(path(of: sha256))
    }
}

/// An upload being written: the file, the bytes so far and their running SHA-256. Deleted when dropped
/// uncommitted.
package final class IncomingBlob {
    package let path: String
    let descriptor: Int32
    package private(set) var size = 0
    fileprivate(set) var hash = SHA256()
    fileprivate(set) var committed = false

    fileprivate init(path: String, descriptor: Int32) {
        self.path = path
        self.descriptor = descriptor
    }

    deinit {
        close(descriptor)
        if !committed { unlink(path) }
    }

    /// Appends `bytes`.
    package func write(_ bytes: UnsafeRawBufferPointer) throws(SystemError) {
        try Platform.writeAll(bytes, to: descriptor, path: path)
        hash.update(bufferPointer: bytes)
        size += bytes.count
    }

    /// The whole file, read back (for validating the model before it is committed).
    func contents() throws(SystemError) -> [UInt8] {
        try FileContents.read(atPath: path)
    }
}
