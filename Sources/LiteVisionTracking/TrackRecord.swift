import LiteVisionGeometry

/// The tracker's private record of one track, reported or not yet.
struct TrackRecord: Sendable {
    /// The motion model.
    var filter: BoxKalmanFilter
    /// The public ID, or -1 while the track is tentative (fewer than ``hitsToConfirm`` hits).
    var id: Int
    /// The class of the detection that started the track.
    var classIndex: Int?
    /// Frames matched.
    var hits: Int
    /// Frames matched by this record's own motion model: ``hits`` without those of a lost track whose ID it continues
    /// (see ``ObjectTracker/confirm(_:beforeRetiring:)``).
    var ownHits = 1
    /// How many frames the track must be matched in before it is reported: consecutive frames, or with at most one
    /// frame between two for a tentative object (``ObjectTracker/bridgesMiss(_:)``; a stretch of background survives
    /// more, but is reported only as ``ObjectTracker/isBackground(_:)`` tells).
    var hitsToConfirm: Int
    /// Whether the object is believable enough to be reported once matched in ``hitsToConfirm`` frames: started by a
    /// detection from ``TrackingOptions/newTrackThreshold`` or detected so since, or, for a tentative object, seen
    /// partly hidden or cut by the image border in one of its frames (``ObjectTracker/isPartlyHidden(_:except:)``).
    var isBelievable: Bool
    /// Whether the track, started confidently in the open, waits for more boxes before it is reported, meanwhile
    /// taking part in the association with the reported tracks (see ``TrackingOptions/openObjectHits``).
    var isHeldInOpen = false
    /// Frames since the track started, counting the first.
    var age: Int
    /// Frames since the last match.
    var framesSinceUpdate: Int
    /// How many of the frames since the last match the track spent in the open: its predicted box neither at the image
    /// border nor under the box of an object followed there (see ``ObjectTracker/isInOpen(_:covers:)``).
    var framesUnseenInOpen = 0
    /// Score of the last matched detection.
    var score: Float
    /// In how many frames in a row, up to the last, the track was matched to a detection from
    /// ``TrackingOptions/newTrackThreshold``: counted for tracks not reported yet (see
    /// ``ObjectTracker/isBackground(_:)``), 0 after a frame without such a match.
    var confidentRun = 0
    /// Score of the detection matched in the frame before the last match, or 0 when the track was unmatched there
    /// (lost, or not started yet). With ``score``, it tells a track followed on weak detections: see
    /// ``isFollowedWeakly(below:)``.
    var previousScore: Float = 0
    /// Box of the last matched detection, limited to the image (with camera-motion compensation, carried into the
    /// current frame's pixels while the track is lost).
    var detectionBox: BoundingBox
    /// Box of the last matched detection as the detector gave it, reported for the track: ``detectionBox`` is the
    /// box limited to the image (see ``ObjectTracker/update(_:imageWidth:imageHeight:)``).
    var reportedBox: BoundingBox
    /// The whole predicted box for the current frame (may extend past the image).
    var predictedBox: BoundingBox
    /// The predicted box limited to the image: what detections are compared with.
    var matchBox: BoundingBox
    /// `matchBox` grown by ``lostBuffer``, for a lost track (every track at a low frame rate; see
    /// ``similarity(toConfident:threshold:everyTrack:imageWidth:imageHeight:)``).
    var bufferedMatchBox: BoundingBox
    /// The detection matched in the current frame, or -1.
    var detectionIndex: Int
    /// The object's remembered width, to complete partial detections.
    var horizontal: PartialObservation
    /// The object's remembered height.
    var vertical: PartialObservation
    /// With re-identification, the running average of the appearance of the track's confident detections (see
    /// ``observeAppearance(_:inverseNorm:momentum:)``); empty without.
    var appearance: [Float] = []

    /// A new track started by a detection, to be reported once matched in `hitsToConfirm` frames and believable.
    init(detection: TrackerDetection, index: Int, hitsToConfirm: Int, isBelievable: Bool) {
        filter = BoxKalmanFilter(box: detection.box)
        id = -1
        classIndex = detection.classIndex
        hits = 1
        self.hitsToConfirm = hitsToConfirm
        self.isBelievable = isBelievable
        age = 1
        framesSinceUpdate = 0
        score = detection.score
        detectionBox = detection.box
        reportedBox = detection.box
        predictedBox = detection.box
        matchBox = detection.box
        bufferedMatchBox = detection.box
        detectionIndex = index
        horizontal = PartialObservation(size: detection.box.width)
        vertical = PartialObservation(size: detection.box.height)
    }

    /// Whether the track's detections in the last frame it was matched and in the frame before it both scored under
    /// `threshold` (a frame without a match counting as such): the track follows an object seen only weakly, most
    /// often one partly hidden behind another.
    @inline(__always)
    func isFollowedWeakly(below threshold: Float) -> Bool {
        score < threshold && previousScore < threshold
    }

    /// Whether the track is reported (has an ID).
    var isConfirmed: Bool { id >= 0 }

    /// Whether the track has been measured in fewer than ``ObjectTracker/establishedHits`` frames of its own (a
    /// track continuing a lost one's ID counts its own boxes, not the hits it took over): its speed is not known yet
    /// (see ``ObjectTracker/youngTrackGain``).
    var isYoung: Bool { !horizontal.isSettled }

    /// Whether the track is dormant: reported, matched in fewer than ``ObjectTracker/establishedHits`` frames, and
    /// unseen for more than ``ObjectTracker/newTrackBuffer`` frames. Such a track is most often a false detection, so
    /// it takes no detection any more, hides or obstructs nothing and is not in ``ObjectTracker/liveTracks``; it only
    /// keeps its ID, until ``TrackingOptions/lostTrackBuffer`` (``TrackingOptions/openLostTrackBuffer`` in plain view),
    /// for a new object reported in its path (see
    /// ``ObjectTracker/continuedLostTrack(_:beforeRetiring:)``): most often its own object, missed for a few frames
    /// just after it appeared. (With re-identification no track is dormant: see
    /// ``ObjectTracker/isDropped(_:framesUnseen:)``.)
    var isDormant: Bool { isConfirmed && isPastNewTrackBuffer(framesUnseen: framesSinceUpdate) }

    /// Whether the track, unmatched for `framesUnseen` frames, has been matched in fewer than
    /// ``ObjectTracker/establishedHits`` frames and unseen for longer than ``ObjectTracker/newTrackBuffer``: no longer
    /// to take detections (dormant, or dropped with re-identification).
    func isPastNewTrackBuffer(framesUnseen: Int) -> Bool {
        hits < ObjectTracker.establishedHits && framesUnseen > ObjectTracker.newTrackBuffer
    }

    /// Moves the track to the next frame: predicts its box (see ``BoxKalmanFilter/predict(lowFrameRate:)``) and
    /// clears the previous frame's match.
    @inline(__always)
    mutating func advance(imageWidth: Double, imageHeight: Double, lowFrameRate: Bool) {
        detectionIndex = -1
        age += 1
        filter.predict(lowFrameRate: lowFrameRate)
        predictedBox = filter.box
        matchBox = predictedBox.clamped(width: imageWidth, height: imageHeight)
        bufferedMatchBox = matchBox.expanded(by: Self.lostBuffer)
    }

    /// How many times the usual deviation a shared box is measured with (see
    /// ``ObjectTracker/sharesLostTrack(_:)``). Such a box lies between the two objects it may cover; measured
    /// as usual, it pulls the track that takes it toward the pair's pace, so that where the two part the track takes
    /// the other object's box. At three times the deviation the track keeps most of its own velocity through the
    /// overlap. On the tracking benchmark (`docs/tracking-quality.md`, twelfth round) 3 won 10 more of 344 older
    /// draws, as many of 84 newer ones and 3 more of 104 under other noise models, with 6 % fewer ID switches on the
    /// older draws. 4 won 5 more of the 532 than 3 with 1.5 % more switches; with the rule's first form, 2 removed 2 %
    /// more switches than 3 and won 4 fewer draws, 5 won 5 more with 6 % more switches (more than before the rule).
    /// Chosen when the usual deviation was 1/20 of the box size; at 7/100 (the twenty-seventh round) 3 still won 7 more
    /// of the 680 draws at the own frame rate than 2.14, the deviation a shared box had before.
    static let sharedBoxDeviation = 3.0

    /// How many times the usual deviation a doubtful box is measured with, when not shared (see
    /// ``correct(with:index:confident:unobstructed:shared:doubtful:imageWidth:imageHeight:)``): under 20 fps (see
    /// `TrackingOptions.frameRate`), with tentative objects on (a tracker used alone), a weak box under
    /// `TrackingOptions.tentativeTrackThreshold`, which could not start one. Such a box is more often a false
    /// detection, a duplicate or a part of an object than a middling one; at a low frame rate, where the velocity may
    /// change by a tenth of the speed each frame, one such box bent the track's path. At 25–30 fps, where the path is
    /// steadier, the boxes of people partly hidden are as good as any, and measured as usual; so are all boxes with
    /// tentative objects off (an object detector's tracker, not measured). On the tracking benchmark
    /// (`docs/tracking-quality.md`, twenty-ninth round) 1.5 won 3 more of 120 draws under 20 fps and lost none, with
    /// 2 % fewer ID switches; under six other noise models at half the frame rate it won and lost none, with 1 % more
    /// ID switches and slightly smaller margins. 1.25 did about as well; 2 lost 2 of those 60 draws.
    static let doubtfulBoxDeviation = 1.5

    /// Corrects the track with its matched detection; `shared` for a box that may cover another, hidden object too
    /// (see ``sharedBoxDeviation``), `doubtful` for one that may be no part of the object (see
    /// ``doubtfulBoxDeviation``). `jitterScale` multiplies the box's measurement deviation for a detector that jitters
    /// more than most (``DetectorJitter/deviationScale``).
    @inline(__always)
    mutating func correct(
        with detection: TrackerDetection, index: Int, confident: Bool, unobstructed: Bool, shared: Bool,
        doubtful: Bool, jitterScale: Double = 1, imageWidth: Double, imageHeight: Double
    ) {
        let box = detection.box, predicted = predictedBox
        let x = horizontal.measure(
            low: box.x, high: box.maxX, predictedLow: predicted.x,
            predictedHigh: predicted.maxX, extent: imageWidth,
            margin: Self.borderMargin(imageWidth), confident: confident,
            unobstructed: unobstructed)
        let y = vertical.measure(
            low: box.y, high: box.maxY, predictedLow: predicted.y,
            predictedHigh: predicted.maxY, extent: imageHeight,
            margin: Self.borderMargin(imageHeight), confident: confident,
            unobstructed: unobstructed)
        filter.update(
            with: BoundingBox(x: x.low, y: y.low, width: x.size, height: y.size),
            deviationScale: (shared ? Self.sharedBoxDeviation : doubtful ? Self.doubtfulBoxDeviation : 1) * jitterScale,
            followingManeuvers: !shared)
        hits += 1
        ownHits += 1
        previousScore = framesSinceUpdate == 0 ? score : 0
        framesSinceUpdate = 0
        framesUnseenInOpen = 0
        score = detection.score
        detectionBox = detection.box
        reportedBox = detection.box
        detectionIndex = index
    }

    /// How close to the image border (in pixels) a box edge counts as cut by it: 1 % of the size, at least 1.
    @inline(__always)
    static func borderMargin(_ extent: Double) -> Double { max(1, extent * 0.01) }

    /// The axes along which the predicted box reaches past a border of the image of the given size (``matchBox`` is
    /// the part inside it) while its center moves toward that border: an object leaving the image, or one that turned
    /// back at the border, which its motion model still carries out. (An object entering through a border moves away
    /// from it.)
    @inline(__always)
    func outwardAxes(imageWidth: Double, imageHeight: Double) -> (horizontal: Bool, vertical: Bool) {
        let box = predictedBox, vx = filter.centerX.velocity, vy = filter.centerY.velocity
        return (
            (box.x < 0 && vx < 0) || (box.maxX > imageWidth && vx > 0),
            (box.y < 0 && vy < 0) || (box.maxY > imageHeight && vy > 0)
        )
    }

    /// How much boxes are grown, on each side and as a fraction of their size, to compare a lost track with a
    /// confident detection (and, along one axis, a track heading out of the image: see
    /// ``similarity(toConfident:threshold:everyTrack:imageWidth:imageHeight:)``).
    static let lostBuffer = 0.25

    /// How well a confident detection fits the track's prediction: their IoU; for a track lost in the last frame
    /// or longer whose IoU falls short of the stage's `threshold`, the IoU of both boxes grown by ``lostBuffer``
    /// instead (C-BIoU's buffered IoU: Yang et al., 2023). A track coasting without measurements has drifted from
    /// its object, most of all when the object turned or stopped while unseen, and a small object soon stops
    /// overlapping its prediction; the buffer tolerates that drift while keeping boxes of very different sizes or
    /// places apart. The buffered IoU only admits a pair the plain one would refuse: when the plain IoU passes,
    /// lost and followed tracks are ranked by the same measure. (Ranking lost tracks by the buffered IoU, which is
    /// larger for the same offset, let the lost track of an object hidden behind another take the visible
    /// object's detection, and the two tracks then took it in turns: an ID switch every frame or two.)
    ///
    /// With `everyTrack` (at a low frame rate: see `TrackingOptions.frameRate`) a track matched in the last frame gets
    /// the buffer too: objects move so far between frames that a new track's prediction (its speed not known yet) or a
    /// turning object's soon misses the object's box. A track whose predicted box reaches past an image border it moves
    /// toward (``outwardAxes(imageWidth:imageHeight:)``) gets it along one axis only (both boxes grown in width at the
    /// left or right border, in height at the top or bottom; not at all at a corner): most often an object that turned
    /// back at the border, whose motion model still carries it out of the image for a frame or two, while another
    /// object entering beside it along the border is kept apart (`docs/tracking-quality.md`, fortieth round).
    ///
    /// A track of one box that touches an image border, and a detection that touches the same border, are compared
    /// along that border (``entrySimilarity(_:imageWidth:imageHeight:)``) when their IoU is under `threshold` and
    /// that is the larger.
    @inline(__always)
    func similarity(
        toConfident box: BoundingBox, threshold: Double, everyTrack: Bool, imageWidth: Double, imageHeight: Double
    ) -> Double {
        var iou = matchBox.fastIoU(box)
        if iou < threshold { iou = max(iou, entrySimilarity(box, imageWidth: imageWidth, imageHeight: imageHeight)) }
        guard iou < threshold else { return iou }
        if framesSinceUpdate > 0 || everyTrack { return bufferedMatchBox.fastIoU(box.expanded(by: Self.lostBuffer)) }
        let outward = outwardAxes(imageWidth: imageWidth, imageHeight: imageHeight)
        // At a corner, where the box reaches past two borders it moves toward, the boxes are not grown: growing them
        // along both axes let an object entering beside a leaving one, along either border, take its ID.
        guard outward.horizontal != outward.vertical else { return iou }
        let widthBy = outward.horizontal ? Self.lostBuffer : 0, heightBy = outward.vertical ? Self.lostBuffer : 0
        return matchBox.expanded(widthBy: widthBy, heightBy: heightBy)
            .fastIoU(box.expanded(widthBy: widthBy, heightBy: heightBy))
    }

    /// How well a weak detection fits the track's prediction: the IoU of their boxes, or — for a detection much
    /// smaller than the object and lying mostly inside the prediction, as a partly hidden object's box does —
    /// the IoU of the prediction with the detection completed to the object's size (see
    /// ``PartialObservation``), whichever is larger. All boxes are limited to the image.
    ///
    /// During a track's first boxes (``PartialObservation/settlingBoxes``), whose size is not settled yet, the box
    /// is compared as it is, as the measurement takes it unless the image border cuts it (such a box is compared as
    /// it is here all the same). Until the fourteenth round of `docs/tracking-quality.md` it was completed here; on the
    /// tracking benchmark the change won and lost no draw and removed a few ID switches. A track of one box at an
    /// image border is compared with a box at the same border as ``entrySimilarity(_:imageWidth:imageHeight:)`` says,
    /// when their IoU is under `threshold` (the pair's gate) and that is the larger.
    @inline(__always)
    func similarity(to box: BoundingBox, threshold: Double, imageWidth: Double, imageHeight: Double) -> Double {
        var iou = matchBox.fastIoU(box)
        if iou < threshold { iou = max(iou, entrySimilarity(box, imageWidth: imageWidth, imageHeight: imageHeight)) }
        // Partly hidden along exactly one axis, as behind a pillar, a bar or the edge of a nearer object.
        let (narrow, short) = smallAxes(box)
        // Both axes count the same boxes (`correct` measures both), so one tells whether the size is settled.
        guard narrow != short, horizontal.isSettled else { return iou }
        let overlap = matchBox.intersection(box).area
        guard overlap >= Self.partialContainment * box.area else { return iou }
        let predicted = predictedBox
        let x = horizontal.completed(
            low: box.x, high: box.maxX, predictedLow: predicted.x,
            predictedHigh: predicted.maxX, extent: imageWidth,
            margin: Self.borderMargin(imageWidth))
        let y = vertical.completed(
            low: box.y, high: box.maxY, predictedLow: predicted.y,
            predictedHigh: predicted.maxY, extent: imageHeight,
            margin: Self.borderMargin(imageHeight))
        let whole = BoundingBox(x: x.low, y: y.low, width: x.size, height: y.size)
            .clamped(width: imageWidth, height: imageHeight)
        return max(iou, matchBox.fastIoU(whole))
    }

    /// How well `box` fits a track of one box when both touch the same image border and `box` reaches at least as far
    /// into the image (give or take ``borderContact``): the overlap of their extents along that border (their heights
    /// at the left or right border, their widths at the top or bottom) over their union; 0 otherwise. Used only where
    /// the plain IoU falls short of the gate, so that it admits pairs without ranking those the IoU admits.
    ///
    /// An object entering the image is seen a sliver first, wider each frame: a walker at 4 px a frame is 5 px wide,
    /// then 9, 14, 18. Each box holds the last one, but their IoU is the ratio of their widths, under the gates after
    /// a frame or two (5/18 = 0.28), and a track of one box has no growth yet to predict. The part across the border
    /// is cut by it, so only the extent along the border tells the object's boxes apart. From the second box the
    /// motion model has the growth. On the tracking benchmark (`docs/tracking-quality.md`, seventeenth round) this
    /// removed 6 % of LiteVision's ID switches.
    @inline(__always)
    func entrySimilarity(_ box: BoundingBox, imageWidth: Double, imageHeight: Double) -> Double {
        guard hits == 1 else { return 0 }
        let a = matchBox, contact = Self.borderContact
        // At the same border, the box reaching at least as far into the image as the track's.
        if (a.x <= contact && box.x <= contact && box.maxX >= a.maxX - contact)
            || (a.maxX >= imageWidth - contact && box.maxX >= imageWidth - contact && box.x <= a.x + contact)
        {
            return Self.overlapRatio(a.y, a.maxY, box.y, box.maxY)
        }
        if (a.y <= contact && box.y <= contact && box.maxY >= a.maxY - contact)
            || (a.maxY >= imageHeight - contact && box.maxY >= imageHeight - contact && box.y <= a.y + contact)
        {
            return Self.overlapRatio(a.x, a.maxX, box.x, box.maxX)
        }
        return 0
    }

    /// How well `box` fits a track of two boxes, matched in the previous frame, as if its object stood still at its
    /// second box: their IoU when it is at least ``standingFit``, else 0 (and 0 for every other track). Used only where
    /// the plain similarity falls short of the pair's gate, and not under 20 fps (see `TrackingOptions.frameRate`),
    /// so that it admits pairs without ranking those the prediction admits.
    ///
    /// A new track takes its speed from the difference of its first two boxes (``BoxKalmanFilter``), and with a
    /// noisy detector that difference may be jitter alone: a person standing, boxed 18 px to the right in the second
    /// frame, is predicted 35 px to the right in the third, off a box back where they stand, and the box then started
    /// a new track with a new ID. From the third box the filter weighs speed against noise. On the tracking benchmark
    /// (`docs/tracking-quality.md`, twenty-fifth round) this raised LiteVision's HOTA on 122 of 680 draws and lowered
    /// it on 31, winning and losing no draw against the best peer.
    @inline(__always)
    func standingSimilarity(to box: BoundingBox) -> Double {
        guard hits == 2, framesSinceUpdate == 0 else { return 0 }
        let iou = detectionBox.fastIoU(box)
        return iou >= Self.standingFit ? iou : 0
    }

    /// The least IoU of a box with a new track's second box for ``standingSimilarity(to:)``: where the jitter of a
    /// standing object's boxes, not another object's box, is most likely. On the tracking benchmark (twenty-fifth
    /// round) 0.5 and 0.45 won one draw fewer than 0.55 against the best peer, with about the same margins.
    static let standingFit = 0.55

    /// How close to an image border, in pixels, a box touches it: detections are clipped to the image, give or take
    /// rounding. Not ``borderMargin(_:)`` (1 % of the image, for completing partial boxes): with it the rule removed
    /// fewer ID switches on the benchmark (seventeenth round).
    static let borderContact = 2.0

    /// The length of the overlap of two intervals over the length of their union (0 when they do not overlap).
    @inline(__always)
    static func overlapRatio(_ low1: Double, _ high1: Double, _ low2: Double, _ high2: Double) -> Double {
        let overlap = min(high1, high2) - max(low1, low2)
        guard overlap > 0 else { return 0 }
        return overlap / (max(high1, high2) - min(low1, low2))
    }

    /// Whether `box` is under ``PartialObservation/shrinkRatio`` of the object's remembered width (`narrow`) and
    /// height (`short`): along such an axis a box may be taken as partly hidden.
    @inline(__always)
    func smallAxes(_ box: BoundingBox) -> (narrow: Bool, short: Bool) {
        (
            box.width < PartialObservation.shrinkRatio * horizontal.reference,
            box.height < PartialObservation.shrinkRatio * vertical.reference
        )
    }

    /// The share of a small detection's area that must lie inside the prediction for it to be taken as a
    /// partial view of the object.
    static let partialContainment = 0.7

    /// Records a frame without a match; the size stops changing while the track coasts.
    @inline(__always)
    mutating func miss() {
        framesSinceUpdate += 1
        confidentRun = 0
        filter.freezeSize()
        horizontal.miss()
        vertical.miss()
    }

    /// The public view of the track.
    func track(reportingFilteredBox: Bool, imageWidth: Double, imageHeight: Double) -> Track {
        let filtered = filter.box.clamped(width: imageWidth, height: imageHeight)
        let matched = detectionIndex >= 0
        let box = matched ? (reportingFilteredBox ? filtered : reportedBox) : matchBox
        return Track(
            id: id, box: box, filteredBox: filtered, score: score, classIndex: classIndex,
            detectionIndex: matched ? detectionIndex : nil, age: age, hits: hits,
            framesSinceUpdate: framesSinceUpdate)
    }
}
