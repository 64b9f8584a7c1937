import LiteRTRuntime

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

    /// Threads one inference may use (LiteVision addition). Defaults to the number of cores.
    public var threadCount: Int = LiteRtRuntime.defaultThreadCount

    /// Which locale's label file to use when the model's metadata has several (LiteVision addition):
    /// the file whose locale matches, else the one without a locale. Defaults to English.
    public var labelLocale: String = "en"

    /// How far large JPEGs may be downscaled while decoding (LiteVision addition). See ``DecodingScale``.
    public var decodingScale: DecodingScale = .full

    /// Load the LiteRT runtime from this file only (LiteVision addition). `nil`, the default, uses the
    /// runtime's discovery order (see `LiteRtRuntime`).
    public var runtimeLibraryPath: String?

    /// Options for the classifier in `localModel`, with ML Kit's defaults.
    public init(localModel: LocalModel) {
        self.localModel = localModel
    }

    /// The number of labels returned when ``maxResultCount`` is unset or invalid.
    public static let defaultMaxResultCount = 10
}
