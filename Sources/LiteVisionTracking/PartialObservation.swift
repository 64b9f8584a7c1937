/// Turns a detection of a partly visible object into a measurement of the whole object, along one axis.
///
/// A detector boxes only what it sees: an object cut by the image border, or partly hidden behind an
/// occluder or another object, gets a smaller box whose center is off. Fed to the Kalman filter as is, such a
/// box drags the estimated size down and the velocity toward zero just before an occlusion — the worst time,
/// since the track must then coast on that velocity. So each track remembers the object's size (the
/// *reference*) and completes shrunken boxes:
///
/// - Cut by the image border (touching it, on one side only): the inside edge is real; the box is extended
///   past the border to the reference size. The filter then follows the whole object as it leaves, and the
///   share of its predicted box outside the image tells when it has gone.
/// - Smaller than 80 % of the reference elsewhere: one edge is hidden. The edge that agrees better with the
///   prediction is kept and the box is given the reference size.
/// - If a confident detection (high score) stays small for more than ``maximumPartialStreak`` updates in a row,
///   the object really has become smaller (or turned), and the reference follows. Low-score detections do not
///   count: a weak score is what a partly hidden object gets.
/// - Sooner when no other track is near the box: once ``unobstructedPartialStreak`` small confident boxes in a row
///   have been completed (near a track or not), a small confident box with no track near it is taken as the new
///   size. Nothing the tracker knows of could hide the object, so it more likely turned. A mug turning in front of a
///   camera narrows to half its width within a few frames, and faster still when frames are dropped, as a live
///   source does on a busy machine; taken as partly hidden for ten updates, its prediction kept the old width and
///   drifted off the mug, and the mug got a new ID. A still occluder the tracker does not follow (a pillar, a parked
///   car) gives a partial view with nothing near too, which is why the first two are still completed.
/// - During a track's first ``settlingBoxes`` boxes (the first included), every box not cut by the border is measured
///   as the whole object, and one under 80 % of the reference becomes the reference at once. The first
///   box is a single detection, and a detector's boxes differ by a tenth or more from frame to frame: from a first box
///   that came out large, every ordinary box after it looked partly hidden and was completed to the large size, the
///   track's prediction stayed too wide, and a box the detector gave for the object and the one next to it went to
///   the neighbour's track (`docs/tracking-quality.md`, thirteenth round). The boxes are counted per track, so a track
///   that continues a lost one's ID (``ObjectTracker/confirm(_:beforeRetiring:)``), established by the lost track's
///   hits, settles its own size. Association compares such a box as it is too
///   (``TrackRecord/similarity(to:threshold:imageWidth:imageHeight:)``).
///
/// The reference follows a whole box by a fifth of the difference per update, larger or smaller alike, so it
/// settles on the object's typical size. (Until the eighth round of `docs/tracking-quality.md` it jumped at once to a
/// larger box, growing by up to 30 % per update: under the jitter of a detector's boxes it then climbed toward the
/// largest recent boxes, and ordinary boxes looked partly hidden and were completed to oversized ones. On the
/// tracking benchmark's still-camera draws the change removed a sixth of the ID switches.)
struct PartialObservation: Sendable, Equatable {
    /// A box under this fraction of the reference is taken as partly hidden.
    static let shrinkRatio = 0.8
    /// How fast the reference follows a whole box: the share of the difference taken per update.
    static let followRate = 0.2
    /// Updates in a row with a small box after which the reference accepts it.
    static let maximumPartialStreak = 10
    /// Updates in a row with a small box (near a track or not) after which the reference accepts a small box with no
    /// other track near it (see
    /// ``measure(low:high:predictedLow:predictedHigh:extent:margin:confident:unobstructed:)``). Measured
    /// (`docs/tracking-quality.md`, tenth round): 2 keeps the named scenarios' pillar occlusion free of ID switches
    /// and the tracking benchmark unchanged; 1 and 0 switch IDs behind the pillar.
    static let unobstructedPartialStreak = 2
    /// How many boxes of a track, the first included, are measured whole unless cut by the border: as many as make a
    /// new track established (``ObjectTracker/establishedHits``).
    static let settlingBoxes = ObjectTracker.establishedHits

    /// The remembered size of the object along this axis.
    var reference: Double
    /// Consecutive updates with a confident box taken as partial (not counting border cuts).
    var partialStreak = 0
    /// The boxes seen, the first included, counted up to ``settlingBoxes``.
    var boxesSeen: Int

    /// Whether the axis has seen ``settlingBoxes`` boxes: from then on, a box under ``shrinkRatio`` of the reference
    /// may be taken as partly hidden.
    var isSettled: Bool { boxesSeen >= Self.settlingBoxes }

    /// Starts from the size of a first box; `boxesSeen` above 1 for an axis that has seen more (in tests).
    init(size: Double, boxesSeen: Int = 1) {
        reference = size
        self.boxesSeen = boxesSeen
    }

    /// How a detected extent relates to the remembered size.
    enum Kind {
        /// Cut by the image border on one side.
        case cutByBorder
        /// Much smaller than the object: partly hidden.
        case partlyHidden
        /// The whole object.
        case whole
    }

    /// The whole object's extent `(low, size)` that a detected extent `low...high` suggests, without
    /// updating anything.
    /// - Parameters:
    ///   - predictedLow: the predicted low edge of the whole object.
    ///   - predictedHigh: the predicted high edge.
    ///   - extent: the image size along this axis.
    ///   - margin: how close to the border a box edge counts as cut by it.
    func completed(
        low: Double, high: Double, predictedLow: Double, predictedHigh: Double,
        extent: Double, margin: Double
    ) -> (low: Double, size: Double, kind: Kind) {
        let size = high - low
        let touchesLow = low <= margin, touchesHigh = high >= extent - margin
        if touchesLow != touchesHigh, size < reference {
            return touchesLow ? (high - reference, reference, .cutByBorder) : (low, reference, .cutByBorder)
        }
        if size < Self.shrinkRatio * reference {
            let keepLow = abs(low - predictedLow) <= abs(high - predictedHigh)
            return keepLow ? (low, reference, .partlyHidden) : (high - reference, reference, .partlyHidden)
        }
        return (low, size, .whole)
    }

    /// The measurement for a matched detection's extent `low...high` (see ``completed``), updating the
    /// remembered size. `confident` tells whether the detection has a high score, `unobstructed` whether no other
    /// track is near it.
    mutating func measure(
        low: Double, high: Double, predictedLow: Double, predictedHigh: Double,
        extent: Double, margin: Double, confident: Bool, unobstructed: Bool = false
    ) -> (low: Double, size: Double) {
        let result = completed(
            low: low, high: high, predictedLow: predictedLow, predictedHigh: predictedHigh,
            extent: extent, margin: margin)
        let settled = isSettled
        if !settled { boxesSeen += 1 }
        switch result.kind {
        case .cutByBorder:
            return (result.low, result.size)
        case .partlyHidden where settled && !confident:
            return (result.low, result.size)
        case .partlyHidden
        where settled
            && partialStreak < (unobstructed ? Self.unobstructedPartialStreak : Self.maximumPartialStreak):
            partialStreak += 1
            return (result.low, result.size)
        case .partlyHidden, .whole:
            // A whole object, one small for too long, or one of a track's first boxes: it has this size now.
            let size = high - low
            partialStreak = 0
            if size < Self.shrinkRatio * reference {
                reference = size
            } else {
                reference += Self.followRate * (size - reference)
            }
            return (low, size)
        }
    }

    /// Notes a frame without detection: the next small box starts a new partial streak.
    mutating func miss() {
        partialStreak = 0
    }
}
