import LiteVisionGeometry

/// An object followed across frames, as reported by ``ObjectTracker/update(_:imageWidth:imageHeight:)``.
public struct Track: Sendable, Equatable {
    /// The tracking ID: non-negative, given in increasing order when a track is first reported, and never
    /// reused by the same tracker for another object (not even after ``ObjectTracker/reset()``). An object lost
    /// inside the image that comes back off its prediction, in its lost track's path, gets its old ID again (see
    /// ``ObjectTracker``); with re-identification (``TrackingOptions/reidentification``), an object that comes back
    /// into the view too. Two objects whose tracks came out of a crossing on each other's objects get their IDs back
    /// as they part (see ``ObjectTracker``, step 6).
    public let id: Int
    /// Where the object is in this frame. For a track matched in this frame it is the matched detection's box
    /// (or, with ``TrackingOptions/reportsFilteredBoxes``, the motion model's estimate, limited to the image);
    /// for a coasting track (see ``ObjectTracker/liveTracks``) it is the predicted box, limited to the image.
    public var box: BoundingBox
    /// The motion model's estimate of the whole object after this frame's update, limited to the image.
    public var filteredBox: BoundingBox
    /// The score of the matched detection, or of the last one for a coasting track.
    public var score: Float
    /// The class of the track (from the detection that started it), or `nil` for class-agnostic detections.
    public var classIndex: Int?
    /// The index into this frame's detections of the one matched to this track; `nil` when coasting.
    public var detectionIndex: Int?
    /// Frames since the track started, counting the first one (1 on its first frame).
    public var age: Int
    /// Frames in which the track was matched to a detection.
    public var hits: Int
    /// Frames since the last match: 0 for a track matched in this frame.
    public var framesSinceUpdate: Int

    /// A track from its parts (the tracker creates them; this is for tests and adapters).
    public init(
        id: Int, box: BoundingBox, filteredBox: BoundingBox? = nil, score: Float, classIndex: Int? = nil,
        detectionIndex: Int?, age: Int, hits: Int, framesSinceUpdate: Int
    ) {
        self.id = id
        self.box = box
        self.filteredBox = filteredBox ?? box
        self.score = score
        self.classIndex = classIndex
        self.detectionIndex = detectionIndex
        self.age = age
        self.hits = hits
        self.framesSinceUpdate = framesSinceUpdate
    }
}
