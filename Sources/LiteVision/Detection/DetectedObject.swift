import LiteVisionImaging

/// An object an ``ObjectDetector`` found, as ML Kit's `Object` (also available under that name, ``Object``).
public struct DetectedObject: Sendable, Hashable, Codable {
    /// Where the object is, in pixels of the upright image (ML Kit's `CGRect`; see ``BoundingBox``).
    public let frame: BoundingBox
    /// The object's tracking ID in stream mode (non-negative, stable while the object stays in view); nil in
    /// single-image mode.
    public let trackingID: Int?
    /// What the object is, highest confidence first; empty when classification is off, when it fits no
    /// category, or (stream mode) before its first classification. In stream mode the confidences are smoothed
    /// over the object's classifications (see ``ObjectDetector``).
    public let labels: [ObjectLabel]
    /// How sure the detector is that there is an object there, 0...1 (LiteVision addition; ML Kit does not
    /// expose it). In stream mode, the score of the detection the track matched in this frame.
    public let detectionConfidence: Float
    /// The class your own detector (``CommonObjectDetectorOptions/detectorModel``) gave the object, with its
    /// score, whether classification is on or off (LiteVision addition). `nil` for the built-in class-agnostic
    /// detector, and for detectors with a single class.
    public let detectorLabel: ObjectLabel?

    /// An object; results come from ``ObjectDetector``, this is for tests and custom pipelines.
    public init(
        frame: BoundingBox, trackingID: Int?, labels: [ObjectLabel], detectionConfidence: Float,
        detectorLabel: ObjectLabel? = nil
    ) {
        self.frame = frame
        self.trackingID = trackingID
        self.labels = labels
        self.detectionConfidence = detectionConfidence
        self.detectorLabel = detectorLabel
    }
}

/// ML Kit's name for a detected object: `var objects: [Object]` compiles as in ML Kit's guides.
public typealias Object = DetectedObject
