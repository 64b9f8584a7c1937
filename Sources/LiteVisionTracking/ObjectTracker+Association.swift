/// Per-frame buffers of the association, kept between frames so that tracking does not allocate.
struct AssociationScratch: Sendable {
    /// Indices of the frame's high-score detections.
    var high: [Int] = []
    /// Indices of the frame's low-score detections.
    var low: [Int] = []
    /// Whether each detection of the frame has been matched.
    var detectionTaken: [Bool] = []
    /// With re-identification's appearance gate, whether each detection was refused to a track by its appearance.
    var vetoed: [Bool] = []
    /// Track indices taking part in the current stage.
    var rows: [Int] = []
    /// Detection indices taking part in the current stage.
    var columns: [Int] = []
    /// Reported tracks lost since an earlier frame and not matched in this one (dormant ones aside), as the current
    /// stage's matches are corrected (see ``ObjectTracker/sharesLostTrack(_:)``).
    var lost: [Int] = []
    /// Tentative objects (and objects held in the open) matched in the previous frame, and stretches of background
    /// followed (``ObjectTracker/bridgesMiss(_:)``), which lost tracks leave the detections they fit clearly better (see
    /// ``ObjectTracker/tentativeObjectFitsBetter(_:than:lostFor:)``). Filled as each frame's association starts, with
    /// tentative objects on (``TrackingOptions/startsTentativeObjects``); valid until it ends.
    var recentTentative: [Int] = []
    /// Objects held in the open (``TrackRecord/isHeldInOpen``) matched in this frame to their last awaited box,
    /// reported once every stage has run (see ``ObjectTracker/associate(_:imageWidth:imageHeight:)``).
    var heldReady: [Int] = []
    /// The frame's detections with their boxes limited to the image, when one of them reaches past it (see
    /// ``ObjectTracker/update(_:imageWidth:imageHeight:)``).
    var inView: [TrackerDetection] = []
    /// The boxes that may hide a lost object, with their tracks' indices (see ``ObjectTracker/coverBox(of:)``),
    /// gathered as a frame's unmatched tracks are retired.
    var covers: [(index: Int, box: BoundingBox)] = []
    /// The assignment solver.
    var solver = AssignmentWorkspace()
    /// The index of each reported track's record by its ID, for the contacts of crossings (see
    /// ``ObjectTracker/resolveCrossings()``).
    var recordByID: [Int: Int] = [:]
}

extension ObjectTracker {
    /// Which tracks may take part in an association stage (among those still unmatched in this frame).
    enum StageTracks {
        /// Reported tracks, followed until the last frame or lost.
        case confirmed
        /// Tracks not reported yet.
        case tentative
    }

    /// Matches the frame's detections to the predicted tracks: one assignment of all of them (with the objects held
    /// in the open, see ``TrackingOptions/openObjectHits``), then the tracks not reported yet. An object held in the
    /// open that is matched to its last awaited box is reported after the last stage, so that the lost track whose ID
    /// it may continue (``confirm(_:beforeRetiring:)``) has had every chance to take a detection.
    mutating func associate(_ detections: [TrackerDetection], imageWidth: Double, imageHeight: Double) {
        scratch.heldReady.removeAll(keepingCapacity: true)
        scratch.high.removeAll(keepingCapacity: true)
        scratch.low.removeAll(keepingCapacity: true)
        scratch.detectionTaken.removeAll(keepingCapacity: true)
        scratch.detectionTaken.append(contentsOf: repeatElement(false, count: detections.count))
        if options.reidentification?.matchSimilarity != nil {
            scratch.vetoed.removeAll(keepingCapacity: true)
            scratch.vetoed.append(contentsOf: repeatElement(false, count: detections.count))
        }
        // A tracker used alone keeps objects alive on boxes of any score (see `TrackingOptions.rescueThreshold`).
        let rescueThreshold = options.rescueThreshold ?? -.infinity
        for (index, detection) in detections.enumerated() {
            let box = detection.box
            guard detection.score.isFinite, box.x.isFinite, box.y.isFinite, box.width.isFinite,
                box.height.isFinite, box.width > 0, box.height > 0
            else { continue }
            if detection.score >= options.detectionThreshold {
                scratch.high.append(index)
            } else if detection.score >= rescueThreshold {
                scratch.low.append(index)
            }
        }
        // Tentative objects matched in the previous frame, and stretches of background followed (see `bridgesMiss`).
        scratch.recentTentative.removeAll(keepingCapacity: true)
        if options.startsTentativeObjects {
            for i in records.indices where bridgesMiss(records[i]) { scratch.recentTentative.append(i) }
        }
        // Stage 1: confident and weak detections together against every reported track, lost ones included. Weak
        // detections only keep objects alive (ByteTrack's low-score recovery), with a stricter gate; solving both in
        // one assignment, rather than the confident ones first as ByteTrack does, keeps a confident box from taking
        // a track whose own object is there, detected weakly because partly hidden (see `docs/tracking-quality.md`).
        runStage(.confirmed, detections: detections, imageWidth: imageWidth, imageHeight: imageHeight)
        // With re-identification's appearance gate, the pairs it refused are considered again without it, among the
        // tracks and detections left: a bad vector then costs nothing unless another object competes for the track.
        if options.reidentification?.matchSimilarity != nil {
            runStage(
                .confirmed, detections: detections, imageWidth: imageWidth, imageHeight: imageHeight,
                gatingAppearance: false)
        }
        // Stage 2: tracks not yet reported take what confident detections are left and, where tentative objects are
        // on (see `TrackingOptions.tentativeTrackThreshold`), what weak ones are left too: a person mostly hidden
        // behind another is detected weakly frame after frame, often under the threshold that started it.
        if options.minimumHits > 1 || options.tentativeTrackThreshold != nil {
            runStage(
                .tentative, detections: detections, imageWidth: imageWidth, imageHeight: imageHeight,
                weakDetections: options.startsTentativeObjects)
        }
        for index in scratch.heldReady { confirm(index, beforeRetiring: true) }
        jitter.settle()
    }

    /// How much a weak detection's gain is scaled in the assignment: a confident box fitting a track as well is
    /// preferred to it. Weak boxes include a detector's duplicates and parts of objects (the localizer's, on the
    /// tests' clips); at full weight they took tracks from the confident boxes of their objects (five ID switches
    /// on a clip of two dogs crossing, none at half weight).
    static let weakDetectionGain = 0.5

    /// How much a weak detection's gain is scaled instead of ``weakDetectionGain`` when its score could start a
    /// tentative object: at or above ``TrackingOptions/tentativeTrackThreshold`` (0.3 for a tracker used alone; never
    /// when that is off, as for an object detector). Such a middling box is more often a real object partly hidden or
    /// seen badly than a weak one is (the benchmark's noise model scores a half-hidden person 0.4–0.7, as detectors
    /// tend to); at half weight, its track could take instead the confident box of a nearby object that fitted it less
    /// well. A confident box fitting as well still wins, unless the track's last detection scored much nearer the
    /// middling box's (see ``scoreConsistency(_:_:)``). On the tracking benchmark (`docs/tracking-quality.md`, seventh
    /// round) it raised HOTA and IDF1 by 0.1–0.3 points on average on the draws it was chosen on, with about the same
    /// ID switches; on draws kept for checking it changed next to nothing.
    static let middlingDetectionGain = 0.85

    /// How much a track's gain is scaled in the assignment when it is hidden (see ``isHidden(_:for:)``):
    /// lost and behind a track matched in the previous frame, or last matched to a weak detection and behind a track
    /// matched to a confident one, for a detection that the track in front fits almost as well (see
    /// ``hiddenClearFit``). When both could take the one detection there, the visible object's track wins unless the
    /// hidden one fits clearly better. Without it, two tracks on one visible object took its detection in
    /// turns, an ID switch every frame or two (the benchmark's crowd: a third of the switches). Weakly detected tracks
    /// count since the fifth round of `docs/tracking-quality.md`: an object going out of sight behind another is
    /// often still detected, weakly, in the frame before, and its track then took the visible object's confident box
    /// whenever that box lay a little nearer its prediction. Only a confident track counts in front of them: a
    /// detector's clutter, followed on weak boxes, hides nothing.
    static let hiddenTrackGain = 0.5

    /// How much of a pair's gain is kept given the detection's score and the score of the track's last detection:
    /// `1 - 0.5 * |difference|`, at least 0.5 (scores outside 0...1 change nothing more). An object going out of
    /// sight behind another is detected ever more weakly while the one in front is detected confidently, so when
    /// both tracks could take a detection where they meet, the one whose scores it continues is preferred (the track
    /// confidence of Hybrid-SORT, without its score prediction). On the tracking benchmark it removed a tenth of the
    /// ID switches (`docs/tracking-quality.md`, fourth round).
    @inline(__always)
    static func scoreConsistency(_ detectionScore: Float, _ trackScore: Float) -> Double {
        max(0.5, 1 - 0.5 * Double(abs(detectionScore - trackScore)))
    }

    /// How much a young track's gain is scaled in the assignment, unless the frame rate is known to be under 20 fps
    /// (see ``TrackingOptions/frameRate``): a track measured in one or two frames of its own (``TrackRecord/isYoung``;
    /// a track continuing a lost one's ID counts its own boxes only), whose speed is unknown or came from the
    /// difference of its two boxes, most of it their jitter. Its prediction then runs off its object, and where it ran
    /// onto an established track's object it took that object's box, the established track lost it, and the two went on
    /// with each other's objects (under the noise model S of `docs/tracking-quality.md`, `TUD-Campus` draw 4, frame
    /// 51). Scaled, it takes a box an established track fits about as well only when it fits clearly better. Under 20
    /// fps a new track's second box is most often its object's step, and it keeps its full weight. On the tracking
    /// benchmark (twenty-ninth round) 0.7 won one more of 836 draws at the sequences' own frame rates and lost none;
    /// 0.5 won the same draw and lost another; counting up to 4 boxes instead of 3 lost one.
    static let youngTrackGain = 0.7

    /// The share of a track's predicted box that a track matched in the previous frame, in front of it (at any depth
    /// once the track is lost for ``depthUnknownAfter`` frames), must cover for it to count as hidden; and of a
    /// tentative object's box, for it to count as partly hidden (``isPartlyHidden(_:except:)``).
    static let hiddenCoverage = 0.3

    /// How far above the bottom of a track's predicted box, as a fraction of that box's height, the bottom of a track
    /// in front may end and still count as reaching as low (see ``isHidden(_:for:)``): a detector's bottom edges
    /// jitter by a few percent of the height, so two people at one depth are told apart by that noise alone. On the
    /// tracking benchmark (`docs/tracking-quality.md`, ninth round) 6 % removed about 2.5 % of the ID switches and
    /// raised HOTA and IDF1 a little on average, also on draws made after it was chosen; 0 %, the rule before, did
    /// less, and 8 % removed slightly more switches but won fewer draws with smaller margins.
    static let depthTolerance = 0.06

    /// Whether the box `front` hides `box`: it reaches as low in the image (nearer the camera, give or take
    /// ``depthTolerance``) and covers at least ``hiddenCoverage`` of it (``covers(_:_:)``). The test of
    /// ``isPartlyHidden(_:except:)``, and of ``isHidden(_:for:)`` for a track lost for fewer than ``depthUnknownAfter``
    /// frames (``covers(_:_:)`` alone from then on).
    @inline(__always)
    static func hides(_ front: BoundingBox, _ box: BoundingBox) -> Bool {
        front.maxY >= box.maxY - depthTolerance * box.height && covers(front, box)
    }

    /// Whether the box `front` covers at least ``hiddenCoverage`` of `box`, whatever their depths.
    @inline(__always)
    static func covers(_ front: BoundingBox, _ box: BoundingBox) -> Bool {
        front.intersection(box).area >= hiddenCoverage * box.area
    }

    /// From how many frames in a row undetected (its `framesSinceUpdate`, counted before this frame) a lost track's
    /// depth no longer counts (see ``isHidden(_:for:)``): its predicted box has coasted so long on its last velocity
    /// and size that its bottom edge a few pixels lower than a followed track's no longer tells that it is in front,
    /// and it then counts as hidden behind any reported track followed in the previous frame that covers
    /// ``hiddenCoverage`` of it. Counted in frames, as the other rules tuned at 25–30 fps. In `TUD-Stadtmitte` (noise
    /// seed 1, frame 96), a track lost for 8 frames, its prediction 2 px too low to be at the followed person's depth,
    /// fitted that person's box a little better (IoU 0.76 against 0.70) and took it at full weight: two ID switches.
    /// On the tracking benchmark (`docs/tracking-quality.md`, thirty-first round) 8 won and lost no draw, with 0.7 %
    /// fewer ID switches at the own rate; 6, 4 and 2 lost 1, 2 and 9 of 680 draws; 12 no longer reached that case.
    static let depthUnknownAfter = 8

    /// Whether the track `index` is hidden: a reported track (or an object held in the open, see
    /// ``TrackingOptions/openObjectHits``) matched in the previous frame (whose last detection was
    /// confident, when the track `index` is not lost: it was then followed on a weak detection) covers at least
    /// ``hiddenCoverage`` of its predicted box and reaches about as low in the image or lower (to within
    /// ``depthTolerance``) — nearer to the camera, for a camera looking down on a floor or a street (the pseudo-depth
    /// of occlusion-aware trackers). A track lost for ``depthUnknownAfter`` frames or more counts as hidden behind such
    /// a track at any depth. In the second pass of re-identification's appearance gate, and in the stage of
    /// tracks not reported yet (a tentative object followed on weak boxes may be hidden too), a track already matched
    /// in this frame counts as well, with this frame's score.
    ///
    /// With `detection`, whether the track is hidden *for that detection*: only behind a track in front that fits the
    /// detection almost as well, its IoU less than ``hiddenClearFit`` under the hidden track's own (see there). Both
    /// fits are the plain IoU of the predicted boxes, not the assignment's similarity (a lost track's grown box, a
    /// partial box completed): where only those let the hidden track take the detection, it stays at half weight.
    func isHidden(_ index: Int, for detection: BoundingBox? = nil) -> Bool {
        let box = records[index].matchBox
        let threshold = records[index].framesSinceUpdate == 0 ? options.detectionThreshold : -.infinity
        let depthKnown = records[index].framesSinceUpdate < Self.depthUnknownAfter
        let clearFit = Self.hiddenClearFit * jitter.steadiness
        for other in records.indices where other != index {
            let front = records[other]
            guard front.isConfirmed || front.isHeldInOpen, front.framesSinceUpdate == 0, front.score >= threshold,
                depthKnown ? Self.hides(front.matchBox, box) : Self.covers(front.matchBox, box)
            else { continue }
            guard let detection else { return true }
            if front.matchBox.fastIoU(detection) + clearFit > box.fastIoU(detection) { return true }
        }
        return false
    }

    /// By how much more IoU than every track in front of it a hidden track must fit a detection to keep its full weight
    /// for that detection (see ``hiddenTrackGain``). The half weight is for ambiguous boxes: a person hidden behind
    /// another, whose lost track coasts on the spot of the visible one, fits that one's box about as well. Two people
    /// at one depth who cross are another case: which of them counts as in front is decided by the jitter of their
    /// boxes, and the box of the one coming out from behind fitted their own lost track clearly better (IoU about 0.85
    /// against 0.6) and still went to the other's track, at half weight, a swap for the rest of the sequence. On the
    /// tracking benchmark (`docs/tracking-quality.md`, eleventh round) 0.2 won 4 more of 344 older draws and 3 more of
    /// 84 newer ones (the set of the draw above, which it still loses, by less), with about 5 % fewer ID switches; it
    /// was chosen on those 428 draws, where 0.15 and 0.3 did less and 0.1 and 0 cost switches. On four other noise
    /// models every value tried but 0.1 won a few more draws, 0.2 among the fewest.
    ///
    /// It is scaled by the detector's steadiness (`DetectorJitter.steadiness`), for a detector steadier than the
    /// benchmark's normal noise: its boxes fit their own tracks at IoU 0.9 and more. Two cars of one lane passing each
    /// other fitted the right box at IoU 0.945 and 0.749: a difference of 0.196, under the clear fit of 0.2, so the
    /// right track stayed at half weight and lost its box. On 35 generic draws of a precise detector
    /// (`docs/tracking-quality.md`, forty-first round) it raised HOTA and IDF1 a little on average and won no draw;
    /// no draw was won or lost under the other noise models, and every draw at the benchmark's own rate scored the
    /// same.
    static let hiddenClearFit = 0.2

    /// The IoU with a lost track's prediction from which a detection's box counts as shared with that track (see
    /// ``sharesLostTrack(_:)``). On the tracking benchmark (`docs/tracking-quality.md`, twelfth round, with the
    /// rule's first form) 0.2 won 3 fewer of 532 draws than 0.3, and 0.5 two fewer with 4 % more ID switches.
    static let sharedBoxOverlap = 0.3

    /// Whether `box`, matched in the current stage, is shared with another object: its IoU with the prediction of a
    /// reported track lost since an earlier frame, matched neither earlier in this frame nor in the current stage (the
    /// tracks in `scratch.lost`, which never hold the track matched to `box`), is at least ``sharedBoxOverlap``. A
    /// detector often gives two people at one spot, one behind the other, a single box; its measurement then counts
    /// less for the track that takes it (see ``TrackRecord/sharedBoxDeviation``).
    func sharesLostTrack(_ box: BoundingBox) -> Bool {
        scratch.lost.contains { records[$0].matchBox.fastIoU(box) >= Self.sharedBoxOverlap }
    }

    /// How much a detection's box is grown, on each side and as a fraction of its size, to look for tracks near it
    /// (see ``isUnobstructed(_:except:)``).
    static let occluderMargin = 0.1

    /// Whether no track other than `index` (followed, lost or not yet reported; not a dormant one, see
    /// ``TrackRecord/isDormant``) has its predicted box within ``occluderMargin`` of `box`: nothing the tracker knows
    /// of could hide part of the object there, so a confident box under 80 % of the object's remembered size soon
    /// counts as its new size (see `PartialObservation`).
    func isUnobstructed(_ box: BoundingBox, except index: Int) -> Bool {
        let grown = box.expanded(by: Self.occluderMargin)
        for other in records.indices where other != index && !records[other].isDormant {
            if records[other].matchBox.intersection(grown).area > 0 { return false }
        }
        return true
    }

    /// By how much more IoU than a lost track's similarity to a detection a tentative object seen beside it must fit
    /// that detection for the lost track to leave it (see ``tentativeObjectFitsBetter(_:than:lostFor:)``). On the
    /// tracking benchmark (`docs/tracking-quality.md`, twenty-fourth round) the boxes the rule is for fit the tentative
    /// object by 0.34 and 0.37 more. 0.1, 0.2 and 0.3 each won one more of 680 draws at the sequences' own frame rates
    /// and lost none; 0.3 changed the fewest draws (7, against 18 and 10) and added the fewest ID switches of the
    /// three; 0.4 won nothing. Without the condition that the tentative object was seen beside the lost track, 0.1 and
    /// 0.2 lost draws.
    static let tentativeClearFit = 0.3

    /// Whether a lost track leaves `detection` to a tentative object: one matched in the previous frame, or a stretch
    /// of background followed (`scratch.recentTentative`), started while the lost track was still matched (on or before
    /// its last matched frame: most likely another object, seen beside it), of the detection's class when classes are
    /// matched, whose predicted box fits the detection's by at least ``tentativeClearFit`` more IoU than `similarity`,
    /// the lost track's own. A person coming out from behind another, detected weakly for a few frames and followed as
    /// a tentative object, would otherwise lose their first confident box to the lost track of a person still hidden
    /// nearby. The detection is then left to the stage of tracks not reported yet, where that object most often takes
    /// it (unless another detection fits it better). `lostFor` is the lost track's `framesSinceUpdate`, counted before
    /// this frame. A tentative object seen partly hidden is reported within five frames of its start, so then only
    /// tracks lost for a frame or two qualify; one not believable yet (``TrackRecord/isBelievable``: seen only in the
    /// open) may stay tentative for long, and tracks lost longer then qualify too (leaving the rule to believable
    /// objects only changed 2 of the tracking benchmark's 1,016 draws, for the worse: thirtieth round); with
    /// ``TrackingOptions/minimumHits`` 3 or more there are no tentative objects (see ``tentativeTrackHits``), and the
    /// rule never applies.
    func tentativeObjectFitsBetter(_ detection: TrackerDetection, than similarity: Double, lostFor: Int) -> Bool {
        let wanted = similarity + Self.tentativeClearFit
        guard wanted <= 1 else { return false }
        for index in scratch.recentTentative where records[index].age > lostFor + 1 {
            if classesDiffer(records[index].classIndex, detection.classIndex) { continue }
            if records[index].matchBox.fastIoU(detection.box) >= wanted { return true }
        }
        return false
    }

    /// One association stage: builds the allowed pairs, solves the assignment and corrects the matched tracks.
    ///
    /// A pair's gain is its similarity minus the gate (a confident detection's ``TrackingOptions/matchIoUThreshold``,
    /// a weak one's ``TrackingOptions/rescueMatchIoUThreshold``, except a middling one's under 20 fps: see
    /// ``TrackingOptions/frameRate``), positive exactly when the pair is allowed, scaled by
    /// ``weakDetectionGain`` for a weak detection (``middlingDetectionGain`` for one that could start a tentative
    /// object), by ``hiddenTrackGain`` for a hidden track (lost, or last matched to
    /// a weak detection behind a confident one), by ``youngTrackGain`` for a young track (not under 20 fps) and by
    /// ``scoreConsistency(_:_:)``; the assignment maximizes the total
    /// gain. A track of two boxes whose similarity falls short of the gate is also compared with the detection as if it
    /// stood at its second box (``TrackRecord/standingSimilarity(to:)``; not under 20 fps). Weak detections take part
    /// unless `weakDetections` is `false`.
    private mutating func runStage(
        _ stage: StageTracks, detections: [TrackerDetection], imageWidth: Double, imageHeight: Double,
        gatingAppearance: Bool = true, weakDetections: Bool = true
    ) {
        scratch.rows.removeAll(keepingCapacity: true)
        for i in records.indices {
            let record = records[i]
            // A lost track whose ID a new one took this frame (`hitsToConfirm` 0) takes nothing more.
            guard record.detectionIndex < 0, !record.isDormant, record.isConfirmed || record.hitsToConfirm > 0 else {
                continue
            }
            switch stage {
            case .confirmed: if !record.isConfirmed && !record.isHeldInOpen { continue }
            case .tentative: if record.isConfirmed || record.isHeldInOpen { continue }
            }
            scratch.rows.append(i)
        }
        guard !scratch.rows.isEmpty else { return }
        scratch.columns.removeAll(keepingCapacity: true)
        for index in scratch.high where !scratch.detectionTaken[index] {
            scratch.columns.append(index)
        }
        let firstWeak = scratch.columns.count
        if weakDetections {
            for index in scratch.low where !scratch.detectionTaken[index] { scratch.columns.append(index) }
        }
        guard !scratch.columns.isEmpty else { return }

        let middling = options.tentativeTrackThreshold ?? .infinity
        let vetoes = gatingAppearance && options.reidentification?.matchSimilarity != nil
        let confidentGate = options.matchIoUThreshold, weakGate = options.rescueMatchIoUThreshold
        // At a low frame rate a middling box is gated as a confident one (see `TrackingOptions.frameRate`).
        let lowFrameRate = options.isLowFrameRate
        let middlingGate = lowFrameRate ? confidentGate : weakGate
        // Under 20 fps, with tentative objects on, weak boxes that could not start one are measured as doubtful.
        let doubtfulBelow = lowFrameRate && options.startsTentativeObjects ? options.tentativeTrackThreshold : nil
        scratch.solver.begin(rows: scratch.rows.count, columns: scratch.columns.count)
        for (r, recordIndex) in scratch.rows.enumerated() {
            let record = records[recordIndex]
            let trackClass = record.classIndex
            // Whether a track is hidden is only asked once it has an allowed pair (most lost tracks have none), and
            // only of a track lost or last matched to a weak detection: one detected confidently was in sight. A
            // hidden track is then asked again for each detection, which it may fit clearly better than the tracks
            // in front of it do.
            var hidden: Bool? =
                (record.framesSinceUpdate > 0 || record.score < options.detectionThreshold) ? nil : false
            let youngGain = !lowFrameRate && record.isYoung ? Self.youngTrackGain : 1
            for (c, detectionIndex) in scratch.columns.enumerated() {
                let detection = detections[detectionIndex]
                if classesDiffer(trackClass, detection.classIndex) { continue }
                let weak = c >= firstWeak
                let gate = !weak ? confidentGate : detection.score >= middling ? middlingGate : weakGate
                // Weak detections may be partial views of the object; lost tracks, and tracks heading out of the
                // image, get some slack.
                var iou =
                    weak
                    ? record.similarity(
                        to: detection.box, threshold: gate, imageWidth: imageWidth, imageHeight: imageHeight)
                    : record.similarity(
                        toConfident: detection.box, threshold: gate, everyTrack: lowFrameRate, imageWidth: imageWidth,
                        imageHeight: imageHeight)
                // A track of two boxes may owe its speed to their jitter alone: a box that fits its second one well is
                // most likely its object.
                if iou < gate, !lowFrameRate { iou = max(iou, record.standingSimilarity(to: detection.box)) }
                guard iou >= gate else { continue }
                // Only confident detections carry an appearance worth gating on: weak ones are often partly hidden.
                if vetoes, !weak, appearanceVetoes(record, detection) {
                    scratch.vetoed[detectionIndex] = true
                    continue
                }
                // A lost track leaves a box to the tentative object of another object beside it that fits it clearly
                // better.
                if stage == .confirmed, record.framesSinceUpdate > 0, !scratch.recentTentative.isEmpty,
                    tentativeObjectFitsBetter(detection, than: iou, lostFor: record.framesSinceUpdate)
                {
                    continue
                }
                if hidden == nil { hidden = isHidden(recordIndex) }
                let trackGain =
                    hidden == true && isHidden(recordIndex, for: detection.box) ? Self.hiddenTrackGain : 1
                let detectionGain =
                    !weak ? 1 : detection.score >= middling ? Self.middlingDetectionGain : Self.weakDetectionGain
                let gain =
                    (iou - gate) * trackGain * detectionGain * youngGain
                    * Self.scoreConsistency(detection.score, record.score)
                // The tiny constant keeps a pair exactly at the gate.
                scratch.solver.addEdge(row: r, column: c, weight: gain + 1e-9)
            }
        }
        scratch.solver.solve()
        // The tracks still lost once this stage's matches are known, whatever order they are corrected in.
        for r in scratch.rows.indices where scratch.solver.rowMatch[r] >= 0 {
            records[scratch.rows[r]].detectionIndex = scratch.columns[scratch.solver.rowMatch[r]]
        }
        scratch.lost.removeAll(keepingCapacity: true)
        for i in records.indices
        where records[i].isConfirmed && records[i].framesSinceUpdate > 0 && records[i].detectionIndex < 0
            && !records[i].isDormant
        {
            scratch.lost.append(i)
        }
        for r in scratch.rows.indices {
            let c = scratch.solver.rowMatch[r]
            guard c >= 0 else { continue }
            let recordIndex = scratch.rows[r], detectionIndex = scratch.columns[c]
            let confident = c < firstWeak
            // Only a box under 80 % of the remembered size on some axis can be taken as partly hidden: the others need
            // no look for tracks near them.
            let box = detections[detectionIndex].box
            let (narrow, short) = records[recordIndex].smallAxes(box)
            let shared = sharesLostTrack(box)
            // A settled track's confident box, whole, inside the image and nobody else's, measures the detector's
            // jitter.
            if confident, !narrow, !short, !shared, records[recordIndex].ownHits >= DetectorJitter.settledHits,
                records[recordIndex].framesSinceUpdate == 0,
                !box.touchesBorder(imageWidth: imageWidth, imageHeight: imageHeight)
            {
                jitter.observe(box, predicted: records[recordIndex].predictedBox)
            }
            records[recordIndex].correct(
                with: detections[detectionIndex], index: detectionIndex, confident: confident,
                unobstructed: confident && (narrow || short) && isUnobstructed(box, except: recordIndex),
                shared: shared,
                doubtful: doubtfulBelow.map { !confident && detections[detectionIndex].score < $0 } ?? false,
                jitterScale: jitter.deviationScale, imageWidth: imageWidth, imageHeight: imageHeight)
            scratch.detectionTaken[detectionIndex] = true
            // Weak detections, often partly hidden, would blend the occluder into the appearance.
            if options.reidentification != nil, confident {
                observeAppearance(detections[detectionIndex], record: recordIndex)
            }
            if !records[recordIndex].isConfirmed {
                let sure = confident && detections[detectionIndex].score >= options.newTrackThreshold
                records[recordIndex].confidentRun = sure ? records[recordIndex].confidentRun + 1 : 0
                // A stretch of background is reported only once detected confidently in a few frames in a row.
                if isBackground(records[recordIndex]),
                    records[recordIndex].confidentRun < Self.tentativeTrackHits
                {
                    continue
                }
                // A tentative object detected confidently counts as one a confident detection started (an object
                // held in the open was started so already, and keeps its count).
                if sure, !records[recordIndex].isHeldInOpen {
                    records[recordIndex].hitsToConfirm = min(records[recordIndex].hitsToConfirm, options.minimumHits)
                    records[recordIndex].isBelievable = true
                } else if !records[recordIndex].isBelievable {
                    records[recordIndex].isBelievable = isPartlyHidden(box, except: recordIndex)
                }
                // Not believable yet, a tentative object in a lost track's path is most likely that object back.
                if records[recordIndex].hits >= records[recordIndex].hitsToConfirm,
                    records[recordIndex].isBelievable || continuedLostTrack(recordIndex, beforeRetiring: true) != nil
                {
                    if records[recordIndex].isHeldInOpen {
                        scratch.heldReady.append(recordIndex)
                    } else {
                        confirm(recordIndex, beforeRetiring: true)
                    }
                }
            }
        }
    }
}
