import FoundationEssentials

/// A version of a remote model installed in the cache.
package struct InstalledModel: Sendable, Equatable {
    /// What `model.json` says.
    struct Record: Codable, Equatable {
        var url: String
        var sha256: String
        var size: Int
        var etag: String?
        /// The registry's version number, for a model from a registry.
        var version: Int? = nil
    }

    /// The model's folder in the cache.
    package let folder: String
    let record: Record

    /// The model file.
    package var path: String { folder + "/" + record.sha256 + ".tflite" }
    /// Its SHA-256.
    package var sha256: String { record.sha256 }
    /// Its size in bytes.
    package var size: Int { record.size }
    /// The server's `ETag` for it, if the server sent one.
    package var etag: String? { record.etag }
    /// Its version number on the registry it came from (nil for a model from a plain address).
    package var version: Int? { record.version }
}
