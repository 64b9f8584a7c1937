/// A TFLite model file on this machine, as ML Kit's `LocalModel`.
///
/// Labels come from the model's metadata when it has them. A model without metadata can be given a
/// separate label file (one label per line), either directly or through an AutoML Vision Edge manifest.
public struct LocalModel: Sendable, Hashable {
    /// The `.tflite` (or `.lite`) file.
    public let path: String
    /// A label file to use instead of (or for lack of) the labels in the model's metadata.
    public let labelsPath: String?
    /// The AutoML manifest the model was named by, if any.
    public let manifestPath: String?

    /// A model file; labels come from its metadata.
    public init(path: String) {
        self.path = path
        self.labelsPath = nil
        self.manifestPath = nil
    }

    /// A model file with a separate label file (one label per line; line `i` names output `i`).
    public init(path: String, labelsPath: String) {
        self.path = path
        self.labelsPath = labelsPath
        self.manifestPath = nil
    }

    /// An AutoML Vision Edge bundle: a `manifest.json` naming the model file and its label file, e.g.
    /// `{"modelFile": "model.tflite", "labelsFile": "dict.txt", "modelType": "IMAGE_LABELING"}`.
    /// Relative names are resolved against the manifest's folder. The manifest is read when a labeler or
    /// detector is created, which reports a missing or malformed manifest.
    public init(manifestPath: String) {
        self.path = ""
        self.labelsPath = nil
        self.manifestPath = manifestPath
    }
}
