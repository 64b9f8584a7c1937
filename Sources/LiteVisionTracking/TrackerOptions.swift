/// Settings of an ``ObjectTracker``. The defaults suit a detector running on every frame of a 15–30 fps video.
///
/// **Association.** Each frame, detections are split by score. Those with `score >= highScoreThreshold` are
/// matched first to every reported track (tracked or lost); then those with
/// `lowScoreThreshold <= score < highScoreThreshold` may only *rescue* reported tracks still unmatched
/// (ByteTrack's second stage: an object whose score drops while it is partly hidden keeps its identity, while
/// low scores alone never start a track). Detections under `lowScoreThreshold` are ignored.
///
/// **Cost and gating.** The cost of pairing a track with a detection is `1 - IoU` between the track's box
/// predicted by its motion model (limited to the image) and the detection's box. A pair is allowed only when
/// `IoU >= matchIoUThreshold` (first stage; `lowScoreMatchIoUThreshold` in the second), and, with
/// ``matchesClasses``, when the classes agree. In the first stage, a track that was not matched in the
/// previous frame is compared with both boxes grown by 25 % of their size on each side (C-BIoU's buffered
/// IoU), since its prediction has drifted without measurements. In the second stage, a weak box much smaller than the object
/// along one axis and lying mostly inside the prediction — a partly hidden object — is compared after being
/// completed to the object's remembered size. Among allowed pairs the tracker picks the assignment with the
/// least total cost, where leaving a track or a detection unpaired costs as much as a pair at the threshold —
/// the linear assignment ByteTrack solves with LAPJV, here solved exactly with the Hungarian method on each
/// connected group of overlapping boxes.
package struct TrackerOptions: Sendable, Equatable {
    /// Detections at or above this score take part in the first association stage and may start tracks
    /// (if also at or above ``newTrackThreshold``). Default 0.5.
    package var highScoreThreshold: Float = 0.5
    /// Lower bound of the second (rescue) stage: detections in `lowScoreThreshold..<highScoreThreshold`
    /// can only keep an existing track alive. Default 0.1.
    package var lowScoreThreshold: Float = 0.1
    /// A high-score detection left unmatched starts a new track only at or above this score. Default 0.6.
    package var newTrackThreshold: Float = 0.6
    /// The least IoU between a track's predicted box and a detection for them to be paired in the first stage
    /// (the cost `1 - IoU` must not exceed `1 - matchIoUThreshold`). Default 0.3.
    package var matchIoUThreshold: Double = 0.3
    /// The least IoU for the second stage (low-score detections). Stricter than the first, since a low score
    /// is weaker evidence. Default 0.5, ByteTrack's value.
    package var lowScoreMatchIoUThreshold: Double = 0.5
    /// For how many frames a track that found no detection (occluded, or missed by the detector) is kept,
    /// coasting on its motion model, so that the object gets its identity back when it is detected again.
    /// This applies only while the track's predicted box stays in the image (see ``outsideFraction``).
    /// Default 30 (one second at 30 fps); 0 drops a track at its first miss.
    package var trackBuffer: Int = 30
    /// How many consecutive frames a new track must be matched before it is reported and given an ID.
    /// 1 reports it at once, as ML Kit does; 2 or 3 filter out one-frame false positives. Default 1.
    package var minimumHits: Int = 1
    /// A track left unmatched whose predicted box lies more than this fraction (by area) outside the image
    /// is dropped at once: the object has left the view, and if it comes back it gets a new ID, as in ML Kit.
    /// Default 0.5.
    package var outsideFraction: Double = 0.5
    /// Whether a track only matches detections of its own class (when both have a class). Default `true`;
    /// it makes no difference with a class-agnostic detector.
    package var matchesClasses: Bool = true
    /// Whether ``Track/box`` is the motion model's filtered box (smoother, may lag a little) instead of the
    /// matched detection's box (exactly what the detector saw, as ML Kit reports). Default `false`.
    package var reportsFilteredBoxes: Bool = false

    /// The default options.
    package init() {}
}
