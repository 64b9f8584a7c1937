import Crypto
import FoundationEssentials
import Hummingbird
import LiteVisionModelStore
import LiteVisionRegistryStorage
import Synchronization

/// What the hot read paths need, kept in memory until the registry changes (the metadata store's
/// ``RegistryMetadataStore/generation()``, which a change through any replica moves):
/// model information already encoded as JSON, one answer per version a client can be served (the latest and a
/// rolled-out one), the models and versions that own each blob, and the bytes of small model files, shared by
/// every response that sends them (slices of one buffer: no copy per request, no file read per request). A
/// deleted blob's bytes may stay in memory, but its owners (empty) are checked first, so it is not served; the
/// same content published again is the same bytes. A blob's bytes are checked against its SHA-256 before they are
/// kept.
///
/// Without it each `GET /v1/models/{name}` made two SQLite reads, decoded every version's stored summary and
/// encoded the answer again; each blob request read its file in chunks with read-ahead, so 200 concurrent
/// downloads held hundreds of MB.
final class ResponseCache: Sendable {
    /// A model's information as of one generation of the metadata.
    struct ModelEntry: Sendable {
        let generation: Int
        let model: ModelRecord
        let versions: [PublishedVersion]
        /// The encoded answer for each served version number.
        var answers: [Int: ByteBuffer]
    }

    /// Who owns a blob, as of one generation of the metadata.
    struct BlobOwners: Sendable {
        let generation: Int
        let models: [ModelRecord]
        let versions: [(model: String, version: Int)]
    }

    /// Model files up to this size are kept in memory.
    let blobSizeLimit: Int
    /// The model files kept in memory take at most this many bytes in all (the first ones asked for stay).
    let blobMemoryLimit: Int

    private let models = Mutex<[String: ModelEntry]>([:])
    private let owners = Mutex<[String: BlobOwners]>([:])
    private let blobs = Mutex<(files: [String: ByteBuffer], bytes: Int)>(([:], 0))

    init(blobSizeLimit: Int = 32 << 20, blobMemoryLimit: Int = 64 << 20) {
        self.blobSizeLimit = blobSizeLimit
        self.blobMemoryLimit = blobMemoryLimit
    }

    /// The model `name` and its versions, from memory when nothing changed since they were read.
    func model(_ name: String, in service: RegistryService) async throws(RegistryError) -> ModelEntry {
        try RegistryService.validate(name: name)
        // Read before the models, so a change in between is noticed.
        let generation = try await service.metadata.generation()
        if let entry = models.withLock({ $0[name] }), entry.generation == generation { return entry }
        let (model, versions) = try await service.info(name)
        let entry = ModelEntry(generation: generation, model: model, versions: versions, answers: [:])
        models.withLock { entries in
            if entries.count > 10_000 { entries.removeAll() }  // names come from requests: bound the table
            entries[name] = entry
        }
        return entry
    }

    /// The encoded answer for `entry` served `version`, made once per generation.
    func answer(_ entry: ModelEntry, served version: PublishedVersion, encode: () -> ByteBuffer) -> ByteBuffer {
        if let known = entry.answers[version.version] { return known }
        if let stored = models.withLock({ $0[entry.model.name] }), stored.generation == entry.generation,
            let known = stored.answers[version.version]
        {
            return known
        }
        let encoded = encode()
        models.withLock { entries in
            if var stored = entries[entry.model.name], stored.generation == entry.generation {
                stored.answers[version.version] = encoded
                entries[entry.model.name] = stored
            }
        }
        return encoded
    }

    /// The models and versions owning the blob `sha256`.
    func owners(ofBlob sha256: String, in service: RegistryService) async throws(RegistryError) -> BlobOwners {
        let generation = try await service.metadata.generation()
        if let known = owners.withLock({ $0[sha256] }), known.generation == generation { return known }
        let ownership = try await service.metadata.owners(ofBlob: sha256)
        let found = BlobOwners(generation: generation, models: ownership.models, versions: ownership.versions)
        owners.withLock { table in
            if table.count > 10_000 { table.removeAll() }
            table[sha256] = found
        }
        return found
    }

    /// The bytes of the blob `sha256` (`size` bytes, in `store`), when it is small enough to be kept in memory;
    /// nil to stream it from the store instead.
    func blob(_ sha256: String, size: Int, from store: any RegistryBlobStore) async -> ByteBuffer? {
        guard size <= blobSizeLimit, size > 0 else { return nil }
        if let known = blobs.withLock({ $0.files[sha256] }) { return known }
        guard blobs.withLock({ $0.bytes + size <= blobMemoryLimit }) else { return nil }
        var buffer = ByteBufferAllocator().buffer(capacity: max(size, 1))
        var hash = SHA256()
        do {
            try await store.read(sha256, size: size, range: 0...(max(size, 1) - 1)) { piece in
                guard buffer.readableBytes + piece.readableBytes <= size else { throw RegistryError.storage("") }
                piece.withUnsafeReadableBytes { hash.update(bufferPointer: $0) }
                buffer.writeImmutableBuffer(piece)
            }
        } catch {
            return nil
        }
        // Bytes from a disk or a database are checked before they are served to every client from memory.
        guard buffer.readableBytes == size, SHA256Digest.hex(hash.finalize()) == sha256 else { return nil }
        return blobs.withLock { cache in
            if let known = cache.files[sha256] { return known }
            guard cache.bytes + size <= blobMemoryLimit else { return buffer }
            cache.files[sha256] = buffer
            cache.bytes += size
            return buffer
        }
    }
}
