import LiteVisionModelStore
import LiteVisionSystem
import LiteVisionTracking

/// Every setting of an ``ObjectDetector``: what the option classes hold behind their lock, and the value
/// snapshot a detector takes of them when it is made.
struct DetectorConfiguration: Sendable, Hashable {
    var detectorMode: DetectorMode = .stream
    var shouldEnableMultipleObjects = false
    var shouldEnableClassification = false
    var maximumObjectCount = 5
    var detectionThreshold: Float = 0.5
    var detectorModel: LocalModel?
    var detectorOutputLayout: ObjectDetectorOptions.DetectorOutputLayout?
    var detectorLabelOffset: Int?
    var frameCoordinates = ObjectDetectorOptions.FrameCoordinates.upright
    var tracking = TrackingOptions()
    var classificationInterval = 5
    var modelDirectory: String?
    var allowsModelDownload = true
    /// The model cache: built-in models downloaded into it, a remote classifier's copy read from it; nil for the
    /// defaults.
    var modelCacheFolder: String?
    var processing = ProcessingOptions()

    /// Custom classification (``CustomObjectDetectorOptions``): the classifier, `nil` for the base options.
    var classifier: ModelReference?
    var classificationConfidenceThreshold: NSNumber?
    var maxPerObjectLabelCount = 10
}

extension DetectorConfiguration {
    /// The identities of the model files these settings name now: the custom detector's and the classifier's.
    var modelFileIdentities: [FileIdentity?] {
        (detectorModel?.fileIdentities ?? [])
            + (classifier?.fileIdentities(cacheFolder: modelCacheFolder) ?? [])
    }
}
