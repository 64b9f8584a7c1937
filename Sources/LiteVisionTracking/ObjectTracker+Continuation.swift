import LiteVisionGeometry

extension ObjectTracker {
    /// How much of a newly reported object's box must lie in a lost track's path (see
    /// ``continuedLostTrack(_:beforeRetiring:)``) for the object to take that track's ID.
    static let continuationCoverage = 0.7

    /// How much taller or shorter than a lost track's last detected box a newly reported object's box may be
    /// (as a ratio) for the object to take that track's ID.
    static let continuationHeightRatio = 1.33

    /// From how many frames unseen (this one included) a lost track's path reaches past its prediction (see
    /// ``path(of:reachingAhead:)``).
    static let pathReachAfter = 5

    /// Whether the path of the lost track `lost`, unseen for `unseen` frames (this one included), reaches past its
    /// prediction: from ``pathReachAfter`` frames, for a track whose speed was measured (not a young one, see
    /// ``TrackRecord/isYoung``, nor a dormant one: most of those are false detections, their speed from a box or two).
    static func pathReachesAhead(_ lost: TrackRecord, unseen: Int) -> Bool {
        unseen >= pathReachAfter && !lost.isYoung && !lost.isDormant
    }

    /// The path of the lost track `lost`, in which a newly reported object takes its ID
    /// (``continuedLostTrack(_:beforeRetiring:)``): the box spanning its last detected box and its predicted box for
    /// this frame and, when `reachingAhead` (``pathReachesAhead(_:unseen:)``), its predicted box moved on as far again
    /// (by the prediction's shift from the last detected box). The prediction coasts on the speed measured before the
    /// object went out of sight; an object that sped up since (a box bouncing off a wall and gathering speed, a person
    /// who started to hurry) comes back ahead of it, and one that turned, beside its line: the path is the box spanning
    /// all three. On the tracking benchmark (`docs/tracking-quality.md`, thirty-ninth round) reaching ahead removed
    /// 1.3 % of the ID switches at the sequences' own frame rates and won one more of 70 generic draws, losing none;
    /// the two boxes alone, without the span between them, kept only a quarter of that; reaching three times as far
    /// did less on the generic scenes, and reaching ahead from the first unseen frame lost a draw at 5 fps, where a
    /// few frames unseen are a long way.
    static func path(of lost: TrackRecord, reachingAhead: Bool) -> BoundingBox {
        let spanned = lost.detectionBox.union(lost.matchBox)
        guard reachingAhead else { return spanned }
        let predicted = lost.matchBox
        let ahead = BoundingBox(
            x: predicted.x + (predicted.midX - lost.detectionBox.midX),
            y: predicted.y + (predicted.midY - lost.detectionBox.midY), width: predicted.width,
            height: predicted.height)
        return spanned.union(ahead)
    }

    /// Gives the track `index`, being reported for the first time, its ID: the ID of the lost track it most likely
    /// continues (``continuedLostTrack(_:beforeRetiring:)``), or a new one (or, with re-identification, one given
    /// back by appearance).
    ///
    /// A continued track also takes over the lost track's history: its hits and age add up (the hits of a dormant track
    /// aside, see ``TrackRecord/isDormant``: most such tracks are false detections), and with re-identification it
    /// keeps the lost track's appearance average (its own first boxes' are dropped).
    ///
    /// - Parameter beforeRetiring: whether this frame's unmatched tracks are still to be retired (asked during the
    ///   association, not when starting tracks after it).
    /// - Returns: the index of the lost track's record, which gave its ID up: it is now unreported and unmatched (and
    ///   never bridges a miss, see ``bridgesMiss(_:)``), so `retireUnmatched` drops it at the end of the association;
    ///   a caller after that removes it itself.
    @discardableResult
    mutating func confirm(_ index: Int, beforeRetiring: Bool) -> Int? {
        records[index].isHeldInOpen = false
        guard let lost = continuedLostTrack(index, beforeRetiring: beforeRetiring) else {
            records[index].id = newID(record: index)
            return nil
        }
        let previous = records[lost]
        records[index].id = previous.id
        // A dormant track's hits do not count: a detector firing now and then at one spot would otherwise make an
        // established track of it, one frame at a time.
        if !previous.isDormant { records[index].hits += previous.hits }
        records[index].age = previous.age
        if !previous.appearance.isEmpty { records[index].appearance = previous.appearance }
        records[lost].id = -1
        records[lost].hitsToConfirm = 0
        return lost
    }

    /// The lost track that the track `index`, about to be reported, most likely continues: an object that went out of
    /// sight inside the image (behind another, or missed by the detector) and came back off its prediction — most
    /// often because it stopped, turned or sped up while unseen, so that its detections no longer fit the predicted box
    /// and started a new track.
    ///
    /// A reported track, dormant ones included (see ``TrackRecord/isDormant``), unmatched in every frame of the new
    /// track's life, this one included (all have had their chance when this is asked), and not about to be dropped
    /// (``TrackingOptions/lostTrackBuffer``, ``TrackingOptions/openLostTrackBuffer``,
    /// ``TrackingOptions/outsideFraction``), qualifies when at least ``continuationCoverage`` of the new track's box
    /// lies in its path (``path(of:reachingAhead:)``: between its last detected box and its predicted box for
    /// this frame, and further ahead once unseen for a few frames); and when the two boxes' heights differ by at most a
    /// factor ``continuationHeightRatio``. With ``TrackingOptions/matchesClasses`` the classes must agree too, and with
    /// re-identification's ``ReidentificationOptions/matchSimilarity`` the appearances (when both tracks have one).
    /// Only an unambiguous continuation counts: with two lost tracks qualifying alike (one whose path holds the box
    /// between its last box and its prediction comes before one whose path holds it only ahead, and a dormant one
    /// counts only when no other lost track qualifies), the new object gets a new ID (but of two new objects in one
    /// lost track's path in the same frame, the first reported takes its ID). A track that left the image is dropped,
    /// so an object coming back into the view still gets a new ID, as in ML Kit.
    ///
    /// On the tracking benchmark (`docs/tracking-quality.md`, sixth round) this removed about 2 % of the ID switches
    /// and raised IDF1 by 0.2 points on average.
    func continuedLostTrack(_ index: Int, beforeRetiring: Bool) -> Int? {
        let record = records[index]
        let box = record.detectionBox
        let veto = options.reidentification?.matchSimilarity
        var found: Int?, ahead: Int?, dormant: Int?
        var betweenCount = 0, aheadCount = 0, dormantCount = 0
        for other in records.indices where other != index {
            let lost = records[other]
            guard lost.isConfirmed, lost.detectionIndex < 0 else { continue }
            // Unseen for the new track's whole life: not an object followed alongside it (the one in front of a
            // tentative object, missed once).
            let unseen = lost.framesSinceUpdate + (beforeRetiring ? 1 : 0)
            guard unseen >= record.age else { continue }
            // Asked before this frame is counted: in the open now (this frame's matches are made), a track at the
            // limit is dropped as the frame's unmatched tracks are retired.
            if beforeRetiring {
                var inOpen = lost.framesUnseenInOpen
                if inOpen == options.openLostTrackBuffer,
                    isInOpen(other, covers: records.indices.compactMap { i in coverBox(of: i).map { (i, $0) } })
                {
                    inOpen += 1
                }
                if isDropped(lost, framesUnseen: unseen, framesInOpen: inOpen) { continue }
            }
            if classesDiffer(record.classIndex, lost.classIndex) { continue }
            let ratio = box.height / max(lost.detectionBox.height, 1)
            guard ratio <= Self.continuationHeightRatio, ratio >= 1 / Self.continuationHeightRatio else { continue }
            let least = Self.continuationCoverage * box.area
            let between = Self.path(of: lost, reachingAhead: false).intersection(box).area >= least
            guard
                between
                    || (Self.pathReachesAhead(lost, unseen: unseen)
                        && Self.path(of: lost, reachingAhead: true).intersection(box).area >= least)
            else { continue }
            if let veto, !record.appearance.isEmpty, lost.appearance.count == record.appearance.count,
                AppearanceGallery.cosine(lost.appearance, record.appearance) < veto
            {
                continue
            }
            // A dormant track (most often a false detection) makes no other lost track's continuation ambiguous.
            if lost.isDormant {
                dormantCount += 1
                dormant = other
                continue
            }
            // A track whose path holds the box between its last box and its prediction comes before one that holds
            // it only ahead of its prediction: of two people in a row, the one in front who stopped while unseen is
            // back in their own path, and also ahead of the prediction of the one following.
            if between {
                betweenCount += 1
                found = other
            } else {
                aheadCount += 1
                ahead = other
            }
        }
        if betweenCount > 0 { return betweenCount == 1 ? found : nil }
        if aheadCount > 0 { return aheadCount == 1 ? ahead : nil }
        return dormantCount == 1 ? dormant : nil
    }
}
