import FoundationEssentials
import Hummingbird
import LiteVisionSystem
import Synchronization

/// What the hot read paths need, kept in memory until the registry changes (``ModelRegistry/changeCount``):
/// model information already encoded as JSON, one answer per version a client can be served (the latest and a
/// rolled-out one), the models and versions that own each blob, and the bytes of small model files, shared by
/// every response that sends them (slices of one buffer: no copy per request, no file read per request). A
/// deleted blob's bytes may stay in memory, but its owners (empty) are checked first, so it is not served; the
/// same content published again is the same bytes.
///
/// Without it each `GET /v1/models/{name}` made two SQLite reads, decoded every version's stored summary and
/// encoded the answer again; each blob request read its file in chunks with read-ahead, so 200 concurrent
/// downloads held hundreds of MB.
final class ResponseCache: Sendable {
    /// A model's information as of one ``ModelRegistry/changeCount``.
    struct ModelEntry: Sendable {
        let generation: Int
        let model: ModelRecord
        let versions: [PublishedVersion]
        /// The encoded answer for each served version number.
        var answers: [Int: ByteBuffer]
    }

    /// Who owns a blob, as of one ``ModelRegistry/changeCount``.
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
    func model(_ name: String, in registry: ModelRegistry) throws(RegistryError) -> ModelEntry {
        let generation = registry.changeCount  // read before the database, so a change in between is noticed
        if let entry = models.withLock({ $0[name] }), entry.generation == generation { return entry }
        let (model, versions) = try registry.info(name)
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
    func owners(ofBlob sha256: String, in registry: ModelRegistry) throws(RegistryError) -> BlobOwners {
        let generation = registry.changeCount
        if let known = owners.withLock({ $0[sha256] }), known.generation == generation { return known }
        let found = BlobOwners(
            generation: generation, models: try registry.owners(ofBlob: sha256),
            versions: try registry.versions(ofBlob: sha256))
        owners.withLock { table in
            if table.count > 10_000 { table.removeAll() }
            table[sha256] = found
        }
        return found
    }

    /// The bytes of the blob at `path` (`size` bytes), when it is small enough to be kept in memory; nil to
    /// stream it from the file instead.
    func blob(_ sha256: String, path: String, size: Int) -> ByteBuffer? {
        guard size <= blobSizeLimit else { return nil }
        if let known = blobs.withLock({ $0.files[sha256] }) { return known }
        guard blobs.withLock({ $0.bytes + size <= blobMemoryLimit }),
            let bytes = try? FileContents.read(atPath: path, maximumSize: blobSizeLimit), bytes.count == size
        else { return nil }
        let buffer = ByteBuffer(bytes: bytes)
        return blobs.withLock { cache in
            if let known = cache.files[sha256] { return known }
            guard cache.bytes + size <= blobMemoryLimit else { return buffer }
            cache.files[sha256] = buffer
            cache.bytes += size
            return buffer
        }
    }
}
