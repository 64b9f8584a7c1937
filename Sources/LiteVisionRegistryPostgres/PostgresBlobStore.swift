import Crypto
import LiteVisionModelStore
import LiteVisionRegistryStorage
import LiteVisionSystem
import PostgresNIO
import Synchronization

/// Model files in PostgreSQL, in chunks (`registry_blob` and `registry_blob_chunk`, see ``PostgresMigrations``),
/// so that every replica reaches them without a shared disk.
///
/// - **In:** an upload is received into a local file (``IncomingBlob``, in this process's upload folder), checked,
///   then copied into the database ``chunkSize`` bytes at a time, in one transaction with its `registry_blob` row,
///   and its SHA-256 computed again on the way (a mismatch rolls it back). Until that transaction commits nothing
///   of it is visible; a replica killed during the copy leaves nothing behind (PostgreSQL rolls the transaction
///   back when the connection drops). The same content stored twice at once: the second waits for the first's
///   row, then finds it there.
/// - **Out:** a download reads the chunks it needs one query at a time, 256 KiB of a chunk per query (a connection
///   is held for one piece, not
///   for the whole transfer), each asked for only if it has exactly the length it must have, so a damaged row
///   is never sent or allocated at another size.
/// - **Removal:** a blob goes when no version refers to it (a foreign key keeps it while one does, even one being
///   recorded at that moment on another replica) and no ``store(_:)`` of this process is awaiting its release;
///   its chunks go with it.
package final class PostgresBlobStore: RegistryBlobStore {
    /// The size of the chunks new blobs are cut into.
    package static let chunkSize = 1 << 20
    /// The largest chunk size accepted from the database (a stored value above it is refused, not allocated).
    static let maximumChunkSize = 16 << 20

    let database: PostgresDatabase
    /// Where uploads are received before they are stored (nil in a process that receives none).
    let uploadFolder: String?
    /// The blobs stored by this process and not yet released, with how many stores of each are under way.
    private let pins = Mutex<[String: Int]>([:])

    init(database: PostgresDatabase, uploadFolder: String?) {
        self.database = database
        self.uploadFolder = uploadFolder
    }

    package func makeUpload() throws(RegistryError) -> IncomingBlob {
        guard let uploadFolder else { throw .storage("this process was started without an upload folder") }
        do {
            return try IncomingBlob.create(in: uploadFolder)
        } catch {
            throw .storage("\(error)")
        }
    }

    package func store(_ upload: IncomingBlob) async throws(RegistryError) -> StoredBlob {
        let blob = StoredBlob(sha256: upload.sha256, size: upload.size)
        pins.withLock { $0[blob.sha256, default: 0] += 1 }
        // The upload's file stays open while this runs (the caller holds it).
        let descriptor = upload.descriptor, path = upload.path
        do {
            try await database.withTransaction("storing blob \(blob.sha256)") { connection in
                try await Self.insert(blob, from: descriptor, path: path, on: connection, logger: self.database.logger)
            }
        } catch {
            pins.withLock { Self.unpin(blob.sha256, in: &$0) }
            throw error
        }
        return blob
    }

    /// Inserts the row of `blob` and its chunks, read from the file `descriptor`, unless it is stored already.
    private static func insert(
        _ blob: StoredBlob, from descriptor: Int32, path: String, on connection: PostgresConnection, logger: Logger
    ) async throws {
        var inserted = false
        for try await _ in try await connection.query(
            """
            INSERT INTO registry_blob (sha256, size, chunk_size) VALUES (\(blob.sha256), \(blob.size), \(chunkSize))
            ON CONFLICT (sha256) DO NOTHING RETURNING sha256
            """, logger: logger
        ) {
            inserted = true
        }
        guard inserted else {
            // Stored before (completely: a blob's row and chunks are committed together). Its time is renewed, so
            // that a replica starting now does not take it for an orphan (``removeOrphans(keeping:)``) before its
            // new version is recorded.
            for try await size in try await connection.query(
                "UPDATE registry_blob SET created = now() WHERE sha256 = \(blob.sha256) RETURNING size", logger: logger
            ).decode(Int.self) where size != blob.size {
                throw RegistryError.storage("blob \(blob.sha256) is stored with \(size) bytes, not \(blob.size)")
            }
            return
        }
        var hash = SHA256()
        var offset = 0
        var index = 0
        while offset < blob.size {
            let count = min(chunkSize, blob.size - offset)
            var chunk = ByteBufferAllocator().buffer(capacity: count)
            try chunk.writeWithUnsafeMutableBytes(minimumWritableBytes: count) { bytes in
                let got = pread(descriptor, bytes.baseAddress!, count, off_t(offset))
                guard got == count else {
                    throw got < 0
                        ? SystemError.fromErrno(.read, path: path)
                        : SystemError(.read, path: path, reason: "the upload ended at \(offset + max(got, 0)) bytes")
                }
                hash.update(bufferPointer: UnsafeRawBufferPointer(rebasing: bytes.prefix(count)))
                return count
            }
            try await connection.query(
                "INSERT INTO registry_blob_chunk (sha256, index, data) VALUES (\(blob.sha256), \(index), \(chunk))",
                logger: logger)
            offset += count
            index += 1
        }
        // The bytes sent are the bytes that were checked: anything else rolls the transaction back.
        guard SHA256Digest.hex(hash.finalize()) == blob.sha256 else {
            throw RegistryError.storage("the upload file \(path) changed while it was being stored")
        }
    }

    package func release(_ blob: StoredBlob, recorded: Bool) async {
        let unpinned = pins.withLock { pins in
            Self.unpin(blob.sha256, in: &pins)
            return pins[blob.sha256] == nil
        }
        if !recorded && unpinned { await removeIfUnreferenced(blob.sha256) }
    }

    private static func unpin(_ sha256: String, in pins: inout [String: Int]) {
        let left = (pins[sha256] ?? 1) - 1
        pins[sha256] = left > 0 ? left : nil
    }

    package func size(of sha256: String) async throws(RegistryError) -> Int? {
        try await layout(of: sha256)?.size
    }

    /// The size and chunk size of a stored blob, checked.
    private func layout(of sha256: String) async throws(RegistryError) -> (size: Int, chunkSize: Int)? {
        let found = try await database.withConnection("reading blob \(sha256)") { connection in
            var layout: (Int, Int)?
            for try await row in try await connection.query(
                "SELECT size, chunk_size FROM registry_blob WHERE sha256 = \(sha256)", logger: self.database.logger
            ).decode((Int, Int).self) {
                layout = row
            }
            return layout.map { [$0.0, $0.1] }
        }
        guard let found else { return nil }
        guard found[0] >= 0, (1...Self.maximumChunkSize).contains(found[1]) else {
            throw .storage("blob \(sha256) has an impossible layout in the database")
        }
        return (found[0], found[1])
    }

    package func read(
        _ sha256: String, size: Int, range: ClosedRange<Int>, into write: (ByteBuffer) async throws -> Void
    ) async throws {
        guard let layout = try await layout(of: sha256), layout.size == size else {
            throw RegistryError.notFound("blob \(sha256)")
        }
        guard range.lowerBound >= 0, range.upperBound < size else {
            throw RegistryError.invalidRequest("bytes \(range) are not in blob \(sha256)")
        }
        let chunkSize = layout.chunkSize
        for index in (range.lowerBound / chunkSize)...(range.upperBound / chunkSize) {
            let start = index * chunkSize
            let length = min(chunkSize, size - start)
            let from = max(range.lowerBound, start) - start
            let to = min(range.upperBound, start + length - 1) - start
            // A piece of the chunk at a time: a client that stops reading keeps one piece of it, not the chunk.
            var offset = from
            while offset <= to {
                let (first, count) = (offset + 1, min(Self.pieceSize, to - offset + 1))
                let found = try await database.withConnection("reading blob \(sha256)") { connection in
                    var data: ByteBuffer?
                    for try await bytes in try await connection.query(
                        """
                        SELECT substring(data FROM \(Int32(first)) FOR \(Int32(count))) FROM registry_blob_chunk
                        WHERE sha256 = \(sha256) AND index = \(index) AND octet_length(data) = \(length)
                        """, logger: self.database.logger
                    ).decode(ByteBuffer.self) {
                        data = bytes
                    }
                    return data
                }
                guard let piece = found, piece.readableBytes == count else {
                    throw RegistryError.storage(
                        "chunk \(index) of blob \(sha256) is missing or damaged in the database")
                }
                try await write(piece)
                offset += count
            }
        }
    }

    /// The most bytes of a chunk one query reads for a download: 256 KiB, so that a client that stops reading
    /// holds that much of it (with the pieces being written) instead of a whole chunk.
    static let pieceSize = 256 << 10

    package func removeIfUnreferenced(_ sha256: String) async {
        _ = await remove(sha256)
    }

    /// Deletes the blob `sha256` (and its chunks) unless pinned or referred to; whether it was deleted.
    private func remove(_ sha256: String, storedBefore grace: Duration? = nil) async -> Bool {
        guard pins.withLock({ $0[sha256] == nil }) else { return false }
        let seconds = Int(grace?.components.seconds ?? 0)
        // The version table's foreign key also refuses the delete if a version referring to the blob is being
        // recorded at this moment: then nothing is deleted.
        return
            (try? await database.withConnection("removing blob \(sha256)") { connection -> Bool in
                var deleted = false
                for try await _ in try await connection.query(
                    """
                    DELETE FROM registry_blob WHERE sha256 = \(sha256)
                    AND created <= now() - make_interval(secs => \(seconds))
                    AND NOT EXISTS (SELECT 1 FROM registry_version WHERE sha256 = \(sha256)) RETURNING sha256
                    """, logger: self.database.logger
                ) {
                    deleted = true
                }
                return deleted
            }) ?? false
    }

    /// How long a blob no version refers to is left alone by ``removeOrphans(keeping:)``: another replica may have
    /// stored it and be about to record its version (stores renew the time of a blob that exists).
    package static let orphanGrace = Duration.seconds(3600)

    /// Removes the blobs stored more than ``orphanGrace`` ago that no version refers to (what a replica killed
    /// between storing a file and recording its version leaves behind).
    @discardableResult
    package func removeOrphans(keeping referenced: Set<String>) async -> Int {
        let grace = Int(Self.orphanGrace.components.seconds)
        let stored: [String] =
            (try? await database.withConnection("listing blobs") { connection -> [String] in
                var all: [String] = []
                for try await sha256 in try await connection.query(
                    "SELECT sha256 FROM registry_blob WHERE created <= now() - make_interval(secs => \(grace))",
                    logger: self.database.logger
                ).decode(String.self) {
                    all.append(sha256)
                }
                return all
            }) ?? []
        var removed = 0
        for sha256 in stored where !referenced.contains(sha256) {
            if await remove(sha256, storedBefore: Self.orphanGrace) { removed += 1 }
        }
        return removed
    }
}
