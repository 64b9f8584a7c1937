import LiteVisionGeometry

/// One object found by a detector in one frame: what ``ObjectTracker/update(_:imageWidth:imageHeight:)`` consumes.
public struct TrackerDetection: Sendable, Equatable {
    /// The object's box in pixels of the frame (it may have been clipped to the frame by the detector).
    public var box: BoundingBox
    /// The detector's confidence, normally in `0...1`. It decides the association stage: see ``TrackingOptions``.
    public var score: Float
    /// The detector's class, or `nil` for a class-agnostic detector (ML Kit's built-in one is).
    ///
    /// When ``TrackingOptions/matchesClasses`` is on, a track only matches detections of its own class
    /// if both the track and the detection have one; a `nil` class matches anything.
    public var classIndex: Int?

    /// A detection from its box, score and optional class.
    public init(box: BoundingBox, score: Float, classIndex: Int? = nil) {
        self.box = box
        self.score = score
        self.classIndex = classIndex
    }
}
