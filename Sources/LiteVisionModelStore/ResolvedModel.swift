import LiteVisionSystem

/// A ``LocalModel`` with everything it names read once: the model's bytes, where they came from, and the
/// user's label file if there is one. What every feature loads, whatever the kind of source.
package struct ResolvedModel: Sendable {
    /// How messages name the model: its path, or the name given to bytes in memory.
    package let name: String
    /// The model file on disk, when there is one (the runtime may map it instead of copying the bytes).
    package let path: String?
    /// The whole `.tflite` file.
    package let bytes: [UInt8]
    /// The user's label file (not the model's metadata): its bytes and path.
    package let labelFile: (bytes: [UInt8], path: String)?
}

extension LocalModel {
    /// Reads the model (following an AutoML manifest to its model and label files) and its label file.
    package func resolve() throws(ModelStoreError) -> ResolvedModel {
        switch source {
        case .file(let path):
            return ResolvedModel(
                name: path, path: path, bytes: try Self.read(path, empty: "the model file is empty"),
                labelFile: try labelsPath.map { (labels) throws(ModelStoreError) in try Self.readLabels(labels) })
        case .memory(let bytes, let name):
            guard !bytes.isEmpty else { throw .fileNotReadable(path: name, reason: "the model has no bytes") }
            return ResolvedModel(
                name: name, path: nil, bytes: bytes,
                labelFile: try labelsPath.map { (labels) throws(ModelStoreError) in try Self.readLabels(labels) })
        case .manifest(let manifestPath):
            let named = try AutoMLManifest.resolve(manifestPath)
            return try named.resolve()
        }
    }

    private static func read(_ path: String, empty: String) throws(ModelStoreError) -> [UInt8] {
        let bytes: [UInt8]
        do {
            bytes = try FileContents.read(atPath: path)
        } catch {
            throw .fileNotReadable(path: path, reason: error.reason)
        }
        guard !bytes.isEmpty else { throw .fileNotReadable(path: path, reason: empty) }
        return bytes
    }

    private static func readLabels(_ path: String) throws(ModelStoreError) -> (bytes: [UInt8], path: String) {
        (try read(path, empty: "the file is empty"), path)
    }
}
