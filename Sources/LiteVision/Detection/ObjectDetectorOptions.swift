import LiteVisionModelStore

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
/// var options = ObjectDetectorOptions()
/// options.detectorMode = .singleImage
/// options.shouldEnableMultipleObjects = true
/// options.shouldEnableClassification = true   // Fashion good, Home good, Food, Place, Plant
/// ```
public struct ObjectDetectorOptions: Sendable, Hashable {
    /// Stream (video, with tracking IDs; the default) or single image.
    public var detectorMode: DetectorMode = .stream
    /// Off (the default): only the most prominent object is returned (see ``ObjectDetector``). On: up to
    /// ``maximumObjectCount`` objects, 5 by default as in ML Kit.
    public var shouldEnableMultipleObjects = false
    /// Classify each object: into ML Kit's five coarse categories with these options, or with your model with
    /// ``CustomObjectDetectorOptions``. Off by default.
    public var shouldEnableClassification = false

    /// The most objects returned with multiple objects on (LiteVision addition; ML Kit's fixed cap is 5).
    public var maximumObjectCount = 5
    /// The lowest detector score of an object reported in single-image mode, and of a new track in stream mode
    /// (LiteVision addition). Default 0.5.
    public var detectionThreshold: Float = 0.5
    /// Your own SSD-style detector instead of the built-in one (LiteVision addition): a TFLite model with the
    /// four post-processed outputs, with or without metadata. Give a label file in the `LocalModel` if the
    /// model has none in its metadata. Objects of a detector with classes carry their class as a label.
    public var detectorModel: LocalModel?
    /// The output order of `detectorModel`, when LiteVision cannot work it out (see ``ObjectDetectorOptions/DetectorOutputLayout``).
    public var detectorOutputLayout: DetectorOutputLayout?
    /// How many lines of the detector's label file come before class 0. Default: 1 when the first line is
    /// `background`, else 0.
    public var detectorLabelOffset: Int?
    /// How objects are followed across frames in stream mode (LiteVision addition); what starts an object is
    /// ``detectionThreshold``.
    public var tracking = TrackingOptions()
    /// In stream mode, an object is classified again after this many frames (LiteVision addition; its labels
    /// are smoothed over time in between). Default 5.
    public var classificationInterval = 5
    /// Where the built-in models are looked for first (LiteVision addition); see ``BuiltInModel``.
    public var modelDirectory: String?
    /// Whether a built-in model found in no folder is downloaded from its official URL (or
    /// `LITEVISION_MODEL_BASE_URL`) into the cache, verified by its SHA-256 (LiteVision addition). Default true.
    public var allowsModelDownload = true
    /// Threads, runtime library and JPEG decoding (LiteVision addition). See ``ProcessingOptions``.
    public var processing = ProcessingOptions()

    /// Options with ML Kit's defaults: stream mode, one object, no classification.
    public init() {}
}

/// Options for an ``ObjectDetector`` that classifies detected objects with your TFLite classifier, as ML Kit's
/// `CustomObjectDetectorOptions`. Every property of ``ObjectDetectorOptions`` is available on it too
/// (`options.detectorMode = .singleImage`).
@dynamicMemberLookup
public struct CustomObjectDetectorOptions: Sendable, Hashable {
    /// The classifier applied to each detected object (same requirements as for ``ImageLabeler``): local, or
    /// the downloaded copy of a remote one.
    package let classifier: ModelReference

    /// The local classifier, when the options were made with one.
    public var localModel: LocalModel? {
        if case .local(let model) = classifier { return model }
        return nil
    }

    /// The remote classifier, when the options were made with one; making a detector before it is downloaded
    /// fails with ``VisionError/remoteModelNotDownloaded(_:)``.
    public var remoteModel: CustomRemoteModel? {
        if case .remote(let model) = classifier { return model }
        return nil
    }
    /// Labels below this confidence are dropped. Unset or invalid: the model's metadata threshold, else 0.
    public var classificationConfidenceThreshold: Float?
    /// Labels per object at most. Default 10; invalid (not positive) also means 10.
    public var maxPerObjectLabelCount = 10
    /// The options shared with the built-in detector.
    public var common = ObjectDetectorOptions()

    /// Options classifying objects with `localModel`. Classification is on.
    public init(localModel: LocalModel) {
        classifier = .local(localModel)
        common.shouldEnableClassification = true
    }

    /// Options classifying objects with the downloaded copy of `remoteModel`. Classification is on.
    public init(remoteModel: CustomRemoteModel) {
        classifier = .remote(remoteModel)
        common.shouldEnableClassification = true
    }

    /// The shared options, as properties of this one.
    public subscript<Value>(dynamicMember keyPath: WritableKeyPath<ObjectDetectorOptions, Value>) -> Value {
        get { common[keyPath: keyPath] }
        set { common[keyPath: keyPath] = newValue }
    }
}
