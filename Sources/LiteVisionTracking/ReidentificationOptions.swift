/// Re-identification by appearance (LiteVision addition, off by default): an object that left the view, or was
/// lost longer than the lost-track buffers allow, gets its old ID back when it returns looking the same. ML Kit gives
/// it a new ID, which is what ``ObjectTracker`` does without these options (``TrackingOptions/reidentification``
/// `nil`).
///
/// Appearance comes with the detections: ``TrackerDetection/appearance`` holds a vector describing what is inside
/// the box — the embedding of a re-identification network, a color histogram, any descriptor — compared by cosine
/// similarity. Detections without one are tracked as usual and never re-identify anything.
///
/// **How it works.** A reported track keeps a running average of the appearance of its confident detections (weak
/// ones, often partly hidden, are left out). When it is dropped — it left the view, or stayed undetected past
/// ``TrackingOptions/lostTrackBuffer`` (or ``TrackingOptions/openLostTrackBuffer`` in plain view) — its ID, class and
/// average appearance go to a small gallery, for at most ``memory`` frames and at most ``capacity`` entries (the oldest
/// go first). A confident detection that would start a
/// new object first compares its appearance with the gallery's entries (of the same class, with
/// ``TrackingOptions/matchesClasses``): when the most similar entry has a cosine similarity of at least
/// ``minimumSimilarity`` and beats the second most similar by at least ``margin``, the new track takes that entry's
/// ID (and leaves the gallery, since the object is alive again). Otherwise it gets a new ID, as without these
/// options. In association, appearance can also refuse a pair that overlaps but looks different
/// (``matchSimilarity``, BoT-SORT's appearance gate without its fused cost: the IoU still ranks the pairs allowed).
///
/// **Validation.** A vector is used only when all its values are finite and not all zero, and when it has the
/// length of the first valid vector the tracker was given (the tracker fixes that length until ``ObjectTracker``
/// is reset); others are ignored, as if the detection had none.
///
/// **Cost.** Nothing when off. When on, a dot product per matched track and frame, one per pair of a track and a
/// confident detection that overlap enough, and one per gallery entry for each new track; the gallery is allocated
/// once, and a track's average is updated in place.
public struct ReidentificationOptions: Sendable, Hashable {
    /// For how many frames a dropped track can be re-identified. Default 300 (10 seconds at 30 fps); values under 1
    /// act as 1.
    public var memory: Int = 300
    /// The least cosine similarity between a new detection's appearance and a dropped track's average appearance
    /// for the detection to take the track's ID. Default 0.6 (measured on the benchmark's simulated embeddings); use
    /// what separates people for your descriptor (BoT-SORT uses 0.75 with its re-identification network).
    public var minimumSimilarity: Double = 0.6
    /// How much more similar the best gallery entry must be than the second best: two entries both close to the
    /// detection (two people dressed alike) leave it a new ID rather than risk giving it the wrong one. Default
    /// 0.05; 0 takes the best entry.
    public var margin: Double = 0.05
    /// The most dropped tracks remembered at once: when the gallery is full, the one dropped longest ago is
    /// forgotten. Default 64; values under 1 act as 1.
    public var capacity: Int = 64
    /// The weight of a track's past in its average appearance: each confident detection moves the average by
    /// `1 - momentum` towards its own (normalized) appearance. Default 0.9 (the exponential moving average of
    /// BoT-SORT and StrongSORT); clamped to `0...0.999`.
    public var momentum: Double = 0.9

    /// The least cosine similarity between a track's average appearance and a confident detection's for the two to
    /// be paired in the first association stage, or `nil` for appearance to play no part in association. Default
    /// 0.4: a pair whose IoU passes but that looks unlike the object — another person crossing it — is refused, and
    /// the detection starts no new object in that frame. The pairs refused are considered again without appearance
    /// for the tracks and detections left unpaired, so a bad vector (a blurred or partly hidden view) loses nothing
    /// unless another object competes for the track. On the benchmark (docs/tracking-quality.md) it cut ID switches
    /// by about a quarter.
    public var matchSimilarity: Double? = 0.4

    /// The defaults.
    public init() {}

    /// These options with out-of-range values clamped.
    var clamped: ReidentificationOptions {
        var options = self
        options.memory = max(1, memory)
        options.capacity = max(1, capacity)
        options.momentum = momentum.isFinite ? min(max(momentum, 0), 0.999) : 0.9
        return options
    }
}
