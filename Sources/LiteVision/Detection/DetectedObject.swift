import LiteVisionImaging

/// An object an ``ObjectDetector`` found, as ML Kit's `Object` (renamed: `Object` reads badly in Swift).
public struct DetectedObject: Sendable, Hashable, Codable {
    /// Where the object is, in pixels of the upright image.
    public let frame: BoundingBox
    /// The object's tracking ID in stream mode (non-negative, stable while the object stays in view); nil in
    /// single-image mode.
    public let trackingID: Int?
    /// What the object is, highest confidence first; empty when classification is off, when it fits no
    /// category, or (stream mode) before its first classification.
    public let labels: [ObjectLabel]
    /// How sure the detector is that there is an object there, 0...1 (LiteVision addition; ML Kit does not
    /// expose it). In stream mode, the score of the detection the track matched in this frame.
    public let detectionConfidence: Float

    /// An object; results come from ``ObjectDetector``, this is for tests and custom pipelines.
    public init(frame: BoundingBox, trackingID: Int?, labels: [ObjectLabel], detectionConfidence: Float) {
        self.frame = frame
        self.trackingID = trackingID
        self.labels = labels
        self.detectionConfidence = detectionConfidence
    }
}
