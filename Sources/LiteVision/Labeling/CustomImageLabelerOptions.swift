import LiteVisionModelStore

/// Options for an ``ImageLabeler`` running your own TFLite classifier, as ML Kit's
/// `CustomImageLabelerOptions`.
///
/// ```swift
/// var options = CustomImageLabelerOptions(localModel: LocalModel(path: "bird.tflite"))
/// options.confidenceThreshold = 0.5
/// options.maxResultCount = 3
/// ```
public struct CustomImageLabelerOptions: Sendable, Hashable {
    /// The classifier.
    public var localModel: LocalModel

    /// Only labels with at least this confidence are returned (0...1).
    ///
    /// When unset (`nil`) or invalid (outside 0...1, or not a number), the threshold in the model's
    /// metadata (ScoreThresholdingOptions) is used, else 0.0 — as in ML Kit.
    public var confidenceThreshold: Float?

    /// At most this many labels are returned. When unset (`nil`) or invalid (not positive), 10 — as in ML Kit.
    public var maxResultCount: Int?

    /// Which locale's label file to use when the model's metadata has several (LiteVision addition):
    /// the file whose locale matches, else the one without a locale. Defaults to English.
    public var labelLocale: String = "en"

    /// Threads, runtime library and JPEG decoding (LiteVision addition). See ``ProcessingOptions``.
    public var processing = ProcessingOptions()

    /// Options for the classifier in `localModel`, with ML Kit's defaults.
    public init(localModel: LocalModel) {
        self.localModel = localModel
    }
}
