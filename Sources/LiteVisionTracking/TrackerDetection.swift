import LiteVisionGeometry

/// One object found by a detector in one frame: what ``ObjectTracker/update(_:imageWidth:imageHeight:)`` consumes.
public struct TrackerDetection: Sendable, Equatable {
    /// The object's box in pixels of the frame. It may have been clipped to the frame by the detector, or reach past
    /// it: the tracker matches it as limited to the frame and reports it as given.
    public var box: BoundingBox
    /// The detector's confidence, normally in `0...1`. It decides the association stage: see ``TrackingOptions``.
    public var score: Float
    /// The detector's class, or `nil` for a class-agnostic detector (ML Kit's built-in one is).
    ///
    /// When ``TrackingOptions/matchesClasses`` is on, a track only matches detections of its own class
    /// if both the track and the detection have one; a `nil` class matches anything.
    public var classIndex: Int?
    /// What the object looks like, for re-identification (``TrackingOptions/reidentification``): the embedding of a
    /// re-identification network, a color histogram of the box, any descriptor of any length, compared by cosine
    /// similarity. `nil` (the default) for none; ignored when re-identification is off.
    ///
    /// A vector with a value that is not finite, with only zeros, or of another length than the first valid vector
    /// the tracker was given is ignored, as if the detection had none.
    public var appearance: [Float]?

    /// A detection from its box, score, optional class and optional appearance vector.
    public init(box: BoundingBox, score: Float, classIndex: Int? = nil, appearance: [Float]? = nil) {
        self.box = box
        self.score = score
        self.classIndex = classIndex
        self.appearance = appearance
    }
}
