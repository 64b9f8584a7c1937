import LiteVisionSystem

/// A ``LocalModel`` with its model read once, whatever the kind of source: the bytes, where they came from,
/// the user's label file (read when the feature asks for labels, after it has checked the model) and, for an
/// AutoML bundle, what its manifest says.
package struct ResolvedModel: Sendable {
    /// What an AutoML Vision Edge manifest said about the model.
    package struct Manifest: Sendable {
        /// The manifest file.
        package let path: String
        /// Its `modelType`: `IMAGE_LABELING`, `OBJECT_DETECTION`, or nil when it names none.
        package let modelType: String?
    }

    /// How messages name the model: its path, or the name given to bytes in memory.
    package let name: String
    /// The model file on disk, when there is one (the runtime may map it instead of copying the bytes).
    package let path: String?
    /// The whole `.tflite` file.
    package let bytes: [UInt8]
    /// The identity of the file ``bytes`` were read from (nil for bytes given in memory): whoever opens ``path``
    /// again (the runtime maps it) checks that it is still the file that was read and verified.
    package var identity: FileIdentity? = nil
    /// The user's label file (instead of the model's metadata), if any.
    package let labelsPath: String?
    /// The AutoML manifest the model was named by, if any.
    package let manifest: Manifest?

    /// The user's label file, read now: its bytes and path, or nil when the model has none.
    package func readLabelFile(maximumSize: Int) throws(ModelStoreError) -> (bytes: [UInt8], path: String)? {
        guard let labelsPath else { return nil }
        return (try LocalModel.read(labelsPath, empty: "the file is empty", maximumSize: maximumSize), labelsPath)
    }
}

extension LocalModel {
    /// Reads the model, following an AutoML manifest to its model file.
    package func resolve() throws(ModelStoreError) -> ResolvedModel {
        switch source {
        case .file(let path):
            let (bytes, identity) = try Self.readVersioned(path, empty: "the model file is empty")
            return ResolvedModel(
                name: path, path: path, bytes: bytes, identity: identity, labelsPath: labelsPath, manifest: nil)
        case .memory(let bytes, let name):
            guard !bytes.isEmpty else { throw .fileNotReadable(path: name, reason: "the model has no bytes") }
            return ResolvedModel(name: name, path: nil, bytes: bytes, labelsPath: labelsPath, manifest: nil)
        case .manifest(let manifestPath):
            let (named, modelType) = try AutoMLManifest.resolve(manifestPath)
            let model = try named.resolve()
            return ResolvedModel(
                name: model.name, path: model.path, bytes: model.bytes, identity: model.identity,
                labelsPath: model.labelsPath,
                manifest: ResolvedModel.Manifest(path: manifestPath, modelType: modelType))
        }
    }

    static func read(
        _ path: String, empty: String,
        maximumSize: Int = FileContents.defaultMaximumSize
    ) throws(ModelStoreError) -> [UInt8] {
        try readVersioned(path, empty: empty, maximumSize: maximumSize).bytes
    }

    /// The file's bytes and identity (see `FileContents.readVersioned`); an empty file is an error saying `empty`.
    static func readVersioned(
        _ path: String, empty: String,
        maximumSize: Int = FileContents.defaultMaximumSize
    ) throws(ModelStoreError) -> (bytes: [UInt8], identity: FileIdentity?) {
        let read: (bytes: [UInt8], identity: FileIdentity?)
        do {
            read = try FileContents.readVersioned(atPath: path, maximumSize: maximumSize)
        } catch {
            throw .fileNotReadable(path: path, reason: error.reason)
        }
        guard !read.bytes.isEmpty else { throw .fileNotReadable(path: path, reason: empty) }
        return read
    }
}
