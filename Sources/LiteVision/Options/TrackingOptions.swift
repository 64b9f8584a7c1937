import LiteVisionTracking

/// How an ``ObjectDetector`` in stream mode follows objects from frame to frame (LiteVision addition; ML Kit's
/// tracker has no settings). The defaults suit a detector running on every frame of a 15–30 fps video.
///
/// The detector's ``CommonObjectDetectorOptions/detectionThreshold`` decides what counts as an object: detections at
/// or above it take part in the first association stage and may start new tracks. Weaker detections, down to
/// ``rescueThreshold``, can only keep an existing object's ID alive (ByteTrack's second stage), so an object
/// whose score drops while it is partly hidden keeps its identity, while low scores alone never create one.
///
/// Tracks are paired with detections by the overlap (IoU) of the box a motion model (a Kalman filter)
/// predicts and the detected box, choosing the assignment with the least total cost.
public struct TrackingOptions: Sendable, Hashable {
    /// The lowest detection score that can keep an existing track alive. Default 0.1; values above the
    /// detection threshold act as the detection threshold.
    public var rescueThreshold: Float = 0.1
    /// The least IoU between a track's predicted box and a detection for them to be paired. Default 0.3.
    public var matchIoUThreshold: Double = 0.3
    /// The least IoU for a weak (rescue) detection to be paired. Default 0.5.
    public var rescueMatchIoUThreshold: Double = 0.5
    /// For how many frames an object that is not detected (occluded, or missed by the detector) keeps its ID
    /// while its predicted box stays in the image. Default 30 (one second at 30 fps); 0 drops it at once.
    public var lostTrackBuffer: Int = 30
    /// How many consecutive frames a new object must be detected before it is reported. Default 1 (at once,
    /// as ML Kit); 2 or 3 filter out one-frame false positives.
    public var minimumHits: Int = 1
    /// An object whose predicted box lies more than this fraction (by area) outside the image has left the
    /// view: it is dropped, and gets a new ID if it comes back, as in ML Kit. Default 0.5.
    public var outsideFraction: Double = 0.5
    /// Whether an object only matches detections of its own class, with a detector that has classes.
    /// Default true.
    public var matchesClasses: Bool = true
    /// Report the motion model's filtered box (smoother, may lag a little) instead of exactly the detected box
    /// (as ML Kit reports). Default false.
    public var reportsFilteredBoxes: Bool = false

    /// The defaults.
    public init() {}

    /// The tracker's settings for a detector whose detection threshold is `detectionThreshold`: computed once
    /// when the detector is made.
    func trackerOptions(detectionThreshold: Float) -> TrackerOptions {
        var options = TrackerOptions()
        options.highScoreThreshold = detectionThreshold
        options.newTrackThreshold = detectionThreshold
        options.lowScoreThreshold = min(rescueThreshold, detectionThreshold)
        options.matchIoUThreshold = matchIoUThreshold
        options.lowScoreMatchIoUThreshold = rescueMatchIoUThreshold
        options.trackBuffer = max(0, lostTrackBuffer)
        options.minimumHits = max(1, minimumHits)
        options.outsideFraction = outsideFraction
        options.matchesClasses = matchesClasses
        options.reportsFilteredBoxes = reportsFilteredBoxes
        return options
    }
}
