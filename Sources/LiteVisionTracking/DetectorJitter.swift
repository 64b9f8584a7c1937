import LiteVisionGeometry

/// How far the detector's boxes stray from the objects they follow, measured as the tracker runs, and how much the
/// motion model's measurement deviation is scaled for it (``deviationScale``).
///
/// The motion model takes each box as deviating from its object by ``BoxKalmanFilter/measurementWeight`` (7/100) of
/// the box size, chosen on detectors that jitter by 4 to 7 % of it. A detector that jitters more moves each track by
/// its noise more than by its object's motion: the track's speed carries the jitter of its last boxes, and a track
/// coasting through an occlusion drifts off its object (on the tracking benchmark's heavy noise, a person's track lost
/// behind another drifted 36 px down in nine frames, on a vertical speed learned from jittered heights). So the
/// tracker measures the jitter as it goes. Each confident box matched to a settled track (one whose own motion model
/// was matched to ``settledHits`` boxes or more, the last in the previous frame: a track continuing a lost one's ID
/// counts its own boxes only), away from the image border, not under 80 % of the object's remembered size on either
/// axis (not partly hidden) and not shared with a lost track (see `ObjectTracker.sharesLostTrack(_:)`), is a sample:
/// the mean, over the box's center and size, of the squared error relative to the track's prediction (the center's
/// offset and the size's difference, over the predicted size), at most ``sampleLimit``. Their mean, over about the last
/// ``memory`` samples and started with ``priorSamples`` samples at ``reference``, over ``reference`` is the square of
/// the scale, which is kept from 1 to ``largestScale``: a detector as steady as ``reference`` or steadier keeps the
/// usual deviation, and one steady again (after a camera shake, in a live stream) gets it back.
///
/// The error includes the prediction's own, so ``reference`` is measured, not derived: on the tracking benchmark
/// (`docs/tracking-quality.md`, thirty-fifth round) the mean comes to about 0.004 under its normal noise and 0.010 under
/// its heavy one.
struct DetectorJitter: Sendable, Equatable {
    /// The sum of the samples (see the type's description).
    private var sum = 0.0
    /// The samples' total weight: their number, each weighed as in ``sum``.
    private(set) var count = 0.0
    /// The factor on the boxes' measurement deviation (see the type's description), as of the last ``settle()``.
    private(set) var deviationScale = 1.0
    /// How steady the detector is, as of the last ``settle()``: the root of the mean (as for ``deviationScale``) over
    /// ``steadyReference``, at most 1. It is 1 for a detector that jitters as much as the tracking benchmark's normal
    /// noise or more, and comes to about 0.5 for one with a fifth of that jitter after a few hundred samples
    /// (`docs/tracking-quality.md`, forty-first round); the starting samples (``priorSamples`` of at most ``memory``
    /// plus them) keep it above about 0.44 even for boxes without any jitter. `ObjectTracker.hiddenClearFit` shrinks
    /// with it: a steady detector's boxes fit their own tracks more closely, and smaller differences tell objects
    /// apart.
    private(set) var steadiness = 1.0

    /// The mean squared relative error up to which the usual measurement deviation is kept. On the tracking benchmark
    /// (thirty-fifth round) 0.0065 won 4 more of 680 draws at the sequences' own frame rates, with 2 % fewer ID
    /// switches; 0.0055 and 0.006 (measured with the first form of the rule) won 1 and 2 more. Letting a steadier
    /// detector take a smaller deviation too (a scale down to 0.6) won 2 more of 156 draws under six other noise models
    /// at their own rates, but lost 2 of 60 at half of them.
    static let reference = 0.0065
    /// How many samples at ``reference`` the mean starts with, so that a few boxes do not swing it.
    static let priorSamples = 50.0
    /// The largest ``deviationScale``.
    static let largestScale = 1.6
    /// The largest sample: another object's box, taken by mistake, counts as a large error, not as a huge one.
    static let sampleLimit = 0.05
    /// How many boxes a track must have been matched to before its next confident box is a sample.
    static let settledHits = 5

    /// How many samples the mean remembers, about: each sample weighs `1 - 1/memory` of the next one's.
    static let memory = 500.0

    /// The mean squared relative error under which a detector counts as steadier than usual (see ``steadiness``):
    /// under the benchmark's normal noise the mean comes to about 0.004, under a fifth of its jitter to about 0.0009
    /// (the prediction's own error included).
    static let steadyReference = 0.003

    /// Adds the error of `box`, a confident detection's box, against `predicted`, its track's prediction.
    mutating func observe(_ box: BoundingBox, predicted: BoundingBox) {
        guard predicted.width > 1, predicted.height > 1 else { return }
        let dx = (box.midX - predicted.midX) / predicted.width, dy = (box.midY - predicted.midY) / predicted.height
        let dw = (box.width - predicted.width) / predicted.width
        let dh = (box.height - predicted.height) / predicted.height
        let sample = (dx * dx + dy * dy + dw * dw + dh * dh) / 4
        guard sample.isFinite else { return }
        let fading = 1 - 1 / Self.memory
        sum = fading * sum + min(sample, Self.sampleLimit)
        count = fading * count + 1
    }

    /// Sets ``deviationScale`` and ``steadiness`` from the samples so far.
    mutating func settle() {
        let mean = (sum + Self.priorSamples * Self.reference) / (count + Self.priorSamples)
        deviationScale = min(max((mean / Self.reference).squareRoot(), 1), Self.largestScale)
        steadiness = min((mean / Self.steadyReference).squareRoot(), 1)
    }
}
