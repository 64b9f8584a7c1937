/// How an ``ObjectDetector`` is used, as ML Kit's `ObjectDetectorMode`.
public enum DetectorMode: Sendable, Hashable {
    /// For video: low latency, objects carry tracking IDs across frames. The first frames of an object may
    /// have no labels yet. The default.
    case stream
    /// For still images: every result is final; no tracking IDs.
    case singleImage
}

/// Options for an ``ObjectDetector`` with the built-in detector and, optionally, the built-in coarse
/// classification, as ML Kit's `ObjectDetectorOptions`.
///
/// ```swift
/// let options = ObjectDetectorOptions()
/// options.detectorMode = .singleImage
/// options.shouldEnableMultipleObjects = true
/// options.shouldEnableClassification = true   // Fashion good, Home good, Food, Place, Plant
/// ```
///
/// The settings are those of ``CommonObjectDetectorOptions``; a detector takes a copy of them when it is made.
public final class ObjectDetectorOptions: CommonObjectDetectorOptions, @unchecked Sendable {
    // @unchecked Sendable: restated from CommonObjectDetectorOptions; this class adds no stored property, every
    // setting is in the base class's `state` Mutex.

    /// Options with ML Kit's defaults: stream mode, one object, no classification.
    public init() {
        super.init(DetectorConfiguration())
    }
}
