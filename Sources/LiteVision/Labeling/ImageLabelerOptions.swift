import LiteVisionModelStore

/// Options for the built-in ``ImageLabeler``, as ML Kit's `ImageLabelerOptions`: labels for a whole image
/// without a model of your own.
///
/// ```swift
/// let options = ImageLabelerOptions()
/// options.confidenceThreshold = 0.7
/// let labeler = ImageLabeler.imageLabeler(options: options)
/// let labels = try labeler.results(in: try VisionImage(contentsOfFile: "dogs.jpg"))
/// ```
///
/// ML Kit's base model is not published. LiteVision's built-in labeler is the public model closest to it: ML Kit's
/// object labeler (`object_labeler.tflite`, from ML Kit's own samples, with labels of the Open Images
/// vocabulary), which the built-in ``ObjectDetector`` also uses for its categories. It is found, downloaded and
/// cached as the detector's built-in models are (see <doc:Models>), so its labels and confidences are not ML
/// Kit's. Every label at or above ``CommonImageLabelerOptions/confidenceThreshold`` (0.5 when unset, as ML Kit's)
/// is returned, highest first; ML Kit's base labeler has no count limit.
public final class ImageLabelerOptions: CommonImageLabelerOptions, @unchecked Sendable {
    // @unchecked Sendable: restated from CommonImageLabelerOptions; this class adds no stored property, every
    // setting is in the base class's `state` Mutex.

    /// The confidence threshold when ``CommonImageLabelerOptions/confidenceThreshold`` is unset or invalid, as
    /// ML Kit's.
    static let defaultConfidenceThreshold: Float = 0.5

    /// Options for the built-in labeler, with ML Kit's defaults: ``CommonImageLabelerOptions/confidenceThreshold``
    /// is `nil`, and a threshold that is unset (or invalid: outside 0...1, or not a number) is 0.5.
    public init() {
        var configuration = LabelerConfiguration(model: nil)
        configuration.maxResultCount = .max
        super.init(configuration)
    }

    /// A folder holding the built-in model (LiteVision addition), searched first; see <doc:Models>.
    public var modelDirectory: String? {
        get { state.withLock { $0.modelDirectory } }
        set { state.withLock { $0.modelDirectory = newValue } }
    }

    /// Whether the built-in model may be downloaded when it is not found on this machine (LiteVision addition).
    /// `true` by default; see <doc:Models>.
    public var allowsModelDownload: Bool {
        get { state.withLock { $0.allowsModelDownload } }
        set { state.withLock { $0.allowsModelDownload = newValue } }
    }
}
