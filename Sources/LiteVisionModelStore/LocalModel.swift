/// A TFLite model on this machine, as ML Kit's `LocalModel`: a model file, an AutoML Vision Edge bundle, or
/// model bytes already in memory.
///
/// Labels come from the model's metadata when it has them. A model without metadata can be given a
/// separate label file (one label per line), either directly or through an AutoML Vision Edge manifest.
///
/// Nothing is read when a `LocalModel` is made from a model file or bytes: the labeler or detector given it
/// reads and checks the model (and the label file) when it is created, and reports what is missing or
/// malformed. An AutoML manifest is read and checked when the `LocalModel` is made, as in ML Kit
/// (``init(manifestPath:)`` is `nil` for a missing or invalid manifest), and again by the labeler or detector.
public struct LocalModel: Sendable, Hashable {
    /// Where the model comes from.
    public enum Source: Sendable, Hashable {
        /// A `.tflite` (or `.lite`) file.
        case file(path: String)
        /// An AutoML Vision Edge `manifest.json` naming the model file and its label file.
        case manifest(path: String)
        /// The bytes of a `.tflite` model, with a name for messages (LiteVision addition).
        case memory(bytes: [UInt8], name: String)
    }

    /// Where the model comes from.
    public let source: Source
    /// A label file to use instead of (or for lack of) the labels in the model's metadata.
    public let labelsPath: String?

    /// A model file; labels come from its metadata.
    public init(path: String) {
        source = .file(path: path)
        labelsPath = nil
    }

    /// A model file with a separate label file (one label per line; line `i` names output `i`).
    public init(path: String, labelsPath: String) {
        source = .file(path: path)
        self.labelsPath = labelsPath
    }

    /// An AutoML Vision Edge bundle: a `manifest.json` naming the model file and its label file, e.g.
    /// `{"modelFile": "model.tflite", "labelsFile": "dict.txt", "modelType": "IMAGE_LABELING"}`, or `nil` when
    /// the manifest is missing or invalid, as ML Kit's `init?(manifestPath:)`. Relative names are resolved
    /// against the manifest's folder.
    ///
    /// The manifest is read now: it must be a readable JSON file of at most 1 MiB with a `"modelFile"` string,
    /// and a `"modelType"`, if any, of `IMAGE_LABELING` or `OBJECT_DETECTION`. The files it names are read
    /// by the labeler or detector given the model. To learn why a manifest is refused, use LiteVision's
    /// throwing `LocalModel(validatingManifestPath:)`.
    public init?(manifestPath: String) {
        guard let model = try? LocalModel(checkingManifestPath: manifestPath) else { return nil }
        self = model
    }

    /// An AutoML bundle whose manifest was read and found usable now (see ``init(manifestPath:)``).
    /// - Throws: why the manifest cannot be used.
    package init(checkingManifestPath manifestPath: String) throws(ModelStoreError) {
        _ = try AutoMLManifest.resolve(manifestPath)
        source = .manifest(path: manifestPath)
        labelsPath = nil
    }

    /// A model already in memory (LiteVision addition), e.g. downloaded or decrypted by your app; `name`
    /// stands for it in error messages. Give `labelsPath` when its metadata has no labels.
    public init(bytes: [UInt8], name: String, labelsPath: String? = nil) {
        source = .memory(bytes: bytes, name: name)
        self.labelsPath = labelsPath
    }

    /// The model file, when the model is one (`nil` for a manifest, before it is read, and for bytes).
    public var path: String? {
        if case .file(let path) = source { return path }
        return nil
    }

    /// The AutoML manifest the model is named by, if any.
    public var manifestPath: String? {
        if case .manifest(let path) = source { return path }
        return nil
    }
}
