import LiteVisionModelStore

/// Options for an ``ImageLabeler`` running your own TFLite classifier, as ML Kit's
/// `CustomImageLabelerOptions`.
///
/// ```swift
/// var options = CustomImageLabelerOptions(localModel: LocalModel(path: "bird.tflite"))
/// options.confidenceThreshold = 0.5
/// options.maxResultCount = 3
/// ```
///
/// With a hosted model, `CustomImageLabelerOptions(remoteModel:)` runs its downloaded copy; making a labeler
/// before it is downloaded fails with ``VisionError/remoteModelNotDownloaded(_:)``.
public struct CustomImageLabelerOptions: Sendable, Hashable {
    /// The classifier: local, or the downloaded copy of a remote one.
    package let model: ModelReference

    /// The local classifier, when the options were made with one.
    public var localModel: LocalModel? {
        if case .local(let model) = model { return model }
        return nil
    }

    /// The remote classifier, when the options were made with one.
    public var remoteModel: CustomRemoteModel? {
        if case .remote(let model) = model { return model }
        return nil
    }

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
        model = .local(localModel)
    }

    /// Options for the downloaded copy of the classifier `remoteModel`, with ML Kit's defaults.
    public init(remoteModel: CustomRemoteModel) {
        model = .remote(remoteModel)
    }
}
