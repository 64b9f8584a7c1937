import LiteVisionModelStore

/// Options for an ``ObjectDetector`` that classifies detected objects with your TFLite classifier, as ML Kit's
/// `CustomObjectDetectorOptions`.
///
/// ```swift
/// let options = CustomObjectDetectorOptions(localModel: localModel)
/// options.detectorMode = .singleImage
/// options.shouldEnableClassification = true      // off by default, as in ML Kit
/// options.shouldEnableMultipleObjects = true
/// options.classificationConfidenceThreshold = NSNumber(value: 0.5)
/// options.maxPerObjectLabelCount = 3
/// ```
///
/// Classification is **off** by default, as in ML Kit: without `shouldEnableClassification = true` the
/// classifier is not run and objects have no labels. The other settings are those of
/// ``CommonObjectDetectorOptions``; a detector takes a copy of them all when it is made.
public final class CustomObjectDetectorOptions: CommonObjectDetectorOptions, @unchecked Sendable {
    // @unchecked Sendable: restated from CommonObjectDetectorOptions; this class adds no stored property, its
    // classifier and limits are in the base class's `state` Mutex.

    /// Options classifying objects with `localModel` (once classification is enabled).
    public init(localModel: LocalModel) {
        var configuration = DetectorConfiguration()
        configuration.classifier = .local(localModel)
        super.init(configuration)
    }

    /// Options classifying objects with the downloaded copy of `remoteModel` (once classification is
    /// enabled). A detector made before the model is downloaded reports
    /// ``VisionError/remoteModelNotDownloaded(_:)``.
    public init(remoteModel: CustomRemoteModel) {
        var configuration = DetectorConfiguration()
        configuration.classifier = .remote(remoteModel)
        super.init(configuration)
    }

    /// The local classifier, when the options were made with one.
    public var localModel: LocalModel? {
        if case .local(let model) = self[setting: \.classifier] { return model }
        return nil
    }

    /// The remote classifier, when the options were made with one.
    public var remoteModel: CustomRemoteModel? {
        if case .remote(let model) = self[setting: \.classifier] { return model }
        return nil
    }

    /// Labels below this confidence are dropped (in stream mode: smoothed labels, see ``ObjectDetector``).
    /// Unset or invalid (outside 0...1): the model's metadata threshold, else 0 — as in ML Kit.
    public var classificationConfidenceThreshold: NSNumber? {
        get { self[setting: \.classificationConfidenceThreshold] }
        set { self[setting: \.classificationConfidenceThreshold] = newValue }
    }

    /// Labels per object at most, highest confidence first. Default 10; invalid (not positive) also means 10.
    public var maxPerObjectLabelCount: Int {
        get { self[setting: \.maxPerObjectLabelCount] }
        set { self[setting: \.maxPerObjectLabelCount] = newValue }
    }
}
