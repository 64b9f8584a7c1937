import FoundationEssentials
import LiteVisionRegistryStorage
import LiteVisionSystem
import NIOCore
import Synchronization

/// Model files on disk, named by their SHA-256: `<data>/blobs/<sha256>` (the embedded registry's
/// ``RegistryBlobStore``).
///
/// An upload is streamed into `blobs/.incoming-<pid>-<random>` (never whole in memory), hashed on the way, and
/// fsynced; only then is it renamed to its content address. A file under its final name is therefore always
/// complete and correct; the same content uploaded twice is stored once. ``removeOrphans(keeping:)`` deletes
/// what a crash left behind: incoming files, and blobs no version refers to.
///
/// One server process uses a data folder (``ModelRegistry`` holds its lock), so the blob's lifecycle is kept
/// in this process: a stored blob is *pinned* until its version is recorded, and a blob is removed only under
/// the same lock, when it is neither pinned nor referred to by a version (asked of the metadata through
/// `isReferenced`). A delete can therefore never remove the file of a version being published with the same
/// content.
final class BlobStore: RegistryBlobStore {
    /// The folder of the blobs.
    let folder: String
    /// Whether a version refers to a blob (a read of the metadata, made under `pins`' lock); true when unsure.
    private let isReferenced: @Sendable (String) -> Bool
    /// The blobs stored and not yet released, with how many stores of each are under way.
    private let pins = Mutex<[String: Int]>([:])

    init(dataFolder: String, isReferenced: @escaping @Sendable (String) -> Bool) throws(SystemError) {
        folder = (dataFolder.hasSuffix("/") ? dataFolder : dataFolder + "/") + "blobs"
        self.isReferenced = isReferenced
        if mkdir(folder, DataFolderPermissions.folderMode) != 0 && errno != EEXIST {
            throw .fromErrno(.write, path: folder)
        }
    }

    /// The file of the blob `sha256` (64 lowercase hexadecimal digits, checked by the caller).
    func path(of sha256: String) -> String { folder + "/" + sha256 }

    func makeUpload() throws(RegistryError) -> IncomingBlob {
        do {
            return try IncomingBlob.create(in: folder)
        } catch {
            throw .storage("\(error)")
        }
    }

    /// Moves a complete incoming file to its content address (pinned until ``release(_:recorded:)``): the fsyncs
    /// and the rename run on a thread of their own (``DedicatedThread``), never on the caller's.
    func store(_ upload: IncomingBlob) async throws(RegistryError) -> StoredBlob {
        let blob = StoredBlob(sha256: upload.sha256, size: upload.size)
        let (descriptor, incoming, target, blobs) = (upload.descriptor, upload.path, path(of: blob.sha256), folder)
        pins.withLock { $0[blob.sha256, default: 0] += 1 }
        let failure = await DedicatedThread.run { () -> SystemError? in
            if fsync(descriptor) != 0 { return .fromErrno(.write, path: incoming) }
            guard rename(incoming, target) == 0 else { return .fromErrno(.write, path: target) }
            AtomicFile.syncFolder(blobs)
            return nil
        }
        if let failure {
            await release(blob, recorded: false)
            throw .storage("\(failure)")
        }
        upload.markTaken()
        return blob
    }

    /// Unpins `blob`; removes it when its version was not recorded and nothing refers to it (on a thread of its
    /// own: the metadata is asked synchronously, under the pins' lock).
    func release(_ blob: StoredBlob, recorded: Bool) async {
        await DedicatedThread.run { [self] in
            pins.withLock { pins in
                let left = (pins[blob.sha256] ?? 1) - 1
                pins[blob.sha256] = left > 0 ? left : nil
                if !recorded && left <= 0 && !isReferenced(blob.sha256) { unlink(path(of: blob.sha256)) }
            }
        }
    }

    func size(of sha256: String) async throws(RegistryError) -> Int? {
        try? FileContents.requireRegularFile(atPath: path(of: sha256))
    }

    func read(
        _ sha256: String, size: Int, range: ClosedRange<Int>, into write: (ByteBuffer) async throws -> Void
    ) async throws {
        let path = path(of: sha256)
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw SystemError.fromErrno(.read, path: path) }
        defer { close(descriptor) }
        var offset = range.lowerBound
        while offset <= range.upperBound {
            let count = min(RegistryRoutes.downloadPiece, range.upperBound - offset + 1)
            var buffer = ByteBufferAllocator().buffer(capacity: count)
            let got = try buffer.writeWithUnsafeMutableBytes(minimumWritableBytes: count) { bytes in
                let got = pread(descriptor, bytes.baseAddress!, count, off_t(offset))
                if got < 0 { throw SystemError.fromErrno(.read, path: path) }
                if got == 0 { throw SystemError(.read, path: path, reason: "the file ended at \(offset) bytes") }
                return got
            }
            offset += got
            try await write(buffer)
        }
    }

    /// Removes the blob `sha256` if it is neither pinned nor referred to (on a thread of its own, as
    /// ``release(_:recorded:)``).
    func removeIfUnreferenced(_ sha256: String) async {
        await DedicatedThread.run { [self] in
            pins.withLock { pins in
                if pins[sha256] == nil && !isReferenced(sha256) { unlink(path(of: sha256)) }
            }
        }
    }

    @discardableResult
    func removeOrphans(keeping referenced: Set<String>) async -> Int {
        await DedicatedThread.run { [self] in removeOrphanFiles(keeping: referenced) }
    }

    /// Deletes incoming files and every blob whose SHA-256 is not in `referenced`; returns how many were removed.
    /// Synchronous: for opening a data folder, and for ``removeOrphans(keeping:)`` on a thread of its own.
    @discardableResult
    func removeOrphanFiles(keeping referenced: Set<String>) -> Int {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        var removed = 0
        for name in names where name.hasPrefix(".incoming-") || !referenced.contains(name) {
            if unlink(folder + "/" + name) == 0 { removed += 1 }
        }
        return removed
    }
}
