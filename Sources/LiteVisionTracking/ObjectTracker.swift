/// A multi-object tracker in the spirit of ByteTrack: it turns per-frame detections into tracks with stable IDs.
///
/// It is the tracker of an `ObjectDetector` in stream mode, usable alone on the output of any detector
/// (`import LiteVisionTracking`, the library product of the tracker):
///
/// ```swift
/// var tracker = ObjectTracker()   // TrackingOptions() by default
/// for frame in frames {           // your detector's boxes (pixels) and scores (0...1), frame after frame
///     let detections = frame.boxes.map { TrackerDetection(box: $0.box, score: $0.score) }
///     for track in tracker.update(detections, imageWidth: 1280, imageHeight: 720) {
///         print(track.id, track.box)   // the detection's box, and the object's ID
///     }
/// }
/// ```
///
/// Feed it each frame's detections, in order, with ``update(_:imageWidth:imageHeight:)``; it returns the
/// objects of that frame with their tracking IDs. How it works, per frame:
///
/// 1. Every track's box is predicted by its motion model: a constant-velocity Kalman filter on the box center
///    and size, with noise proportional to the box size, whose center follows maneuvers: when the detections keep
///    falling on one side of the predictions (the object stopped, turned or set off), the velocity follows them within
///    a few frames.
/// 2. High-score and low-score detections are matched to all reported tracks, including ones lost for a few frames, in
///    one exact linear assignment on the IoU with a gate per pair (see ``TrackingOptions``). A lost track's boxes are
///    grown by 25 % on each side when the IoU with a confident detection falls short, to tolerate the drift of a
///    prediction made without measurements; so are, in width or in height only, those of a track matched in the
///    previous frame and predicted to reach past one image border it moves toward (an object that turned back there).
///    Low-score detections keep tracks alive — an object whose score dropped because it is partly hidden — with a
///    stricter gate, a weak box much smaller than the object being compared after completion to the object's size (once
///    its track has seen 3 boxes), and weighing half as much as a confident box that fits as well (85 % as much from
///    ``TrackingOptions/tentativeTrackThreshold`` up). A lost track hidden behind a track matched in the previous frame
///    (one reaching as low in the image, nearer the camera; any, once the lost track has gone undetected for 8 frames
///    and its predicted depth no longer counts), or one last matched to a weak box behind a confident one, weighs half
///    too, so the two do not take the visible object's box in turns, unless the hidden one fits the box clearly better;
///    and a pair weighs less the more the detection's score differs from the track's last one. A track measured in one
///    or two frames of its own (one continuing a lost track's ID counts its own boxes), whose speed is unknown or came
///    from the jitter of its two boxes, weighs 70 % as much (unless the frame rate is known to be under 20 fps). A lost
///    track leaves a detection to a tentative object (see step 4) matched in the previous frame, started on or before
///    the track's last matched frame, of the detection's class (when classes are matched) and fitting the detection by
///    an IoU at least 0.3 higher than the track's similarity to it: most often a person coming out from behind another
///    while the lost one is still hidden. Tracks not reported yet (tentative objects, or with
///    ``TrackingOptions/minimumHits`` above 1) then take what detections are left: confident ones and, with tentative
///    objects on (a tracker used alone), weak ones too. Objects held in the open (see step 4) take part in the first
///    assignment, as reported tracks.
/// 3. Matched tracks are corrected. Detections cut by the image border or partly hidden are completed to the object's
///    remembered size first, so that the filter keeps the object's true size and speed (under 20 fps, with tentative
///    objects on, a weak box that could not start one moves the track less: see ``TrackingOptions/frameRate``). The
///    boxes of a detector that jitters more than most (measured as the tracker runs, from the confident boxes of
///    settled tracks against their predictions) move every track less, up to 1.6 times the usual deviation. An
///    unmatched track coasts on its prediction for up to ``TrackingOptions/lostTrackBuffer`` frames, so a short
///    occlusion or a missed detection does not change the ID (a track matched in fewer than 3 frames yet, most often a
///    false detection, takes detections for 3 of them only; after that its ID only goes to a new object in its path, as
///    in step 5), but for at most ``TrackingOptions/openLostTrackBuffer`` of them in plain view (its prediction neither
///    under the box of an object detected in that frame nor at the image border): an object hidden behind another is
///    followed through the whole buffer, while one missed that long in the open has most likely vanished, and its ID
///    would go to a new object appearing on its path. It is dropped at once when its predicted box has left the image
///    (``TrackingOptions/outsideFraction``): an object that leaves and comes back gets a new ID, as in ML Kit (with
///    ``TrackingOptions/reidentification``, the ID of the dropped track it looks like).
/// 4. A detection left over starts a track, unless it lies mostly on the box of a track matched in this frame: a
///    duplicate box on the same object (a box of another class, with ``TrackingOptions/matchesClasses``, only when it
///    is nearly the same box: IoU 0.5 or more). One from ``TrackingOptions/newTrackThreshold`` still starts a track
///    there when that track's detections in this frame and the one before (a frame without one counting as weak)
///    scored under ``TrackingOptions/detectionThreshold``: most likely it is another object, in front of the partly
///    hidden one the track follows. A detection from ``TrackingOptions/newTrackThreshold`` starts a track reported
///    once it has been matched in ``TrackingOptions/minimumHits`` consecutive frames (at once by default; for a
///    tracker used alone, in two frames when the object appears in the open: see
///    ``TrackingOptions/openObjectHits``); one from
///    ``TrackingOptions/tentativeTrackThreshold`` (0.3 for a tracker used alone) a tentative track, reported once
///    matched in three frames, never two in a row without a match (to boxes of any score from
///    ``TrackingOptions/rescueThreshold``) and once one of its boxes was partly hidden behind another reported object
///    or cut by the image border, or lies in a lost track's path (see step 5); held back only by a matched track's box
///    it lies almost wholly on (a person mostly hidden behind another is followed), and not on the predicted box of a
///    lost track either (a dormant one aside: see step 3). A tentative track still unreported in its 15th frame is
///    taken for a stretch of background the detector boxes at middling scores (``isBackground(_:)``): followed through
///    up to 4 frames in a row without a detection (fewer if ``TrackingOptions/lostTrackBuffer`` is), but reported only
///    once detected confidently in three frames in a row.
/// 5. A track reported for the first time takes the ID of a track lost since before it started, instead of a new
///    one, when its box lies in that track's path (between its last detected box and its prediction, and as far
///    again past the prediction once unseen for 5 frames) and no other lost track's (one whose path holds it between
///    comes before one whose path holds it only ahead): most often the same object, which stopped, turned or sped
///    up while unseen and came back off its prediction. It then goes on as that track, its hits and age included (a
///    dormant track's hits aside: see step 3).
/// 6. Two tracks of one class matched in 10 frames or more whose boxes met (one of them may be lost for up to three
///    frames, met at its prediction), one of them unseen for a frame or more meanwhile, exchange their IDs (with their
///    hits, age and, with re-identification, appearance) as they part if each came out on the other's object: much
///    nearer where the other's object would be at the velocity it had when they met (`docs/tracking-quality.md`,
///    nineteenth, twenty-third and twenty-sixth rounds). Two people at one depth who walk through each other are often
///    seen as one box, and a track may follow the other person out. (This runs after step 3, before new tracks start.)
///
/// The result lists only the tracks matched to a detection in this frame (as ML Kit returns detected
/// objects only); tracks coasting through an occlusion are in ``liveTracks``.
///
/// Cost: a few microseconds per frame with 5 objects and about 0.2 ms with 100 (release build, 2-core host); the
/// per-frame buffers are kept between frames.
///
/// Not thread-safe by itself: it is a value with a mutating `update`, so whoever shares one between threads
/// (a detector processing a stream) must serialize the frames, for instance under a lock.
public struct ObjectTracker: Sendable {
    /// The settings in effect: those the tracker was made with (clamped), with the frame rate measured from the
    /// frames' timestamps when an `ObjectDetector`'s `results(in:timestamp:)` measures it.
    public private(set) var options: TrackingOptions
    /// The number of frames given to ``update(_:imageWidth:imageHeight:)`` since the start or the last reset.
    public private(set) var frameCount = 0

    var records: [TrackRecord] = []
    var nextID = 0
    var scratch = AssociationScratch()
    var lastImageWidth = 0.0
    var lastImageHeight = 0.0
    /// The camera motion given for the frame, the last one applied, and the estimator's buffers.
    var cameraMotionEstimator = CameraMotionEstimator()
    /// Dropped tracks that re-identification may give back (empty when it is off).
    var gallery = AppearanceGallery()
    /// Pairs of tracks that met, followed until they part (see ``resolveCrossings()``).
    var contacts: [TrackContact] = []
    /// How far the detector's boxes stray from their objects, measured so far (see ``DetectorJitter``).
    var jitter = DetectorJitter()

    /// A tracker with the given options (out-of-range values clamped as ``TrackingOptions`` documents). Used
    /// alone, detections at or above ``TrackingOptions/detectionThreshold`` (0.7) are confident and may start
    /// objects (from ``TrackingOptions/newTrackThreshold``, 0.7, at once, or from their second box when they appear in
    /// the open: ``TrackingOptions/openObjectHits``; from ``TrackingOptions/tentativeTrackThreshold``, 0.3, once
    /// detected in three frames, never two in a row without a detection, and seen partly hidden behind another object
    /// or cut by the image border, before its 15th frame; from then on, once detected confidently in three frames in a
    /// row).
    public init(options: TrackingOptions = .init()) {
        var options = options
        options.lostTrackBuffer = max(0, options.lostTrackBuffer)
        options.openLostTrackBuffer = max(0, options.openLostTrackBuffer)
        options.minimumHits = max(1, options.minimumHits)
        options.openObjectHits = max(1, options.openObjectHits)
        options.reidentification = options.reidentification?.clamped
        self.options = options
    }

    /// Sets ``TrackingOptions/frameRate`` from the next frame on, the tracks kept: for a frame rate measured as
    /// frames come, which may change (a live source that drops frames when the detector is busy).
    package mutating func setFrameRate(_ frameRate: Double?) {
        options.frameRate = frameRate
    }

    /// Processes the detections of the next frame and returns the tracks matched in it, sorted by ID.
    ///
    /// Detections with a non-finite or empty box, or a non-finite score, are ignored. A box reaching past the frame
    /// (as ground truth and some detectors give them) is matched as limited to the frame — as a detector that clips
    /// its boxes gives it, cut by the border — and reported as given (unless
    /// ``TrackingOptions/reportsFilteredBoxes``); a box with less than a pixel inside the frame, wide or tall, is
    /// ignored.
    /// - Parameters:
    ///   - detections: the frame's detections, in pixels of the frame.
    ///   - imageWidth: the frame's width in pixels (used to tell when a track has left the view, and which boxes reach
    ///     past the frame: a size too small drops boxes); it must be positive.
    ///   - imageHeight: the frame's height in pixels; it must be positive.
    /// - Returns: one ``Track`` per reported object of this frame, each with ``Track/detectionIndex`` set.
    public mutating func update(_ detections: [TrackerDetection], imageWidth: Int, imageHeight: Int) -> [Track] {
        precondition(imageWidth > 0 && imageHeight > 0, "ObjectTracker: the image size must be positive")
        let width = Double(imageWidth), height = Double(imageHeight)
        frameCount += 1
        lastImageWidth = width
        lastImageHeight = height
        let lowFrameRate = options.isLowFrameRate
        for i in records.indices {
            records[i].advance(imageWidth: width, imageHeight: height, lowFrameRate: lowFrameRate)
        }
        // A box reaching past the image is limited to it, as a detector that clips its boxes (ML Kit's does) gives
        // it: detections are compared with predictions limited to the image, and a box at its border is taken as cut
        // there. It is reported as detected.
        var inView: [TrackerDetection] = []
        let reachesOut = detections.contains { !$0.box.lies(inWidth: width, height: height) }
        if reachesOut {
            swap(&inView, &scratch.inView)
            inView.reserveCapacity(detections.count)
            for detection in detections {
                var limited = detection
                // An empty box is ignored.
                limited.box =
                    detection.box.inView(width: width, height: height) ?? BoundingBox(x: 0, y: 0, width: 0, height: 0)
                inView.append(limited)
            }
        }
        do {
            // Scoped: the limited copies' buffer is referenced once again when emptied below (no copy).
            let seen = reachesOut ? inView : detections
            compensateCameraMotion(seen, imageWidth: width, imageHeight: height)
            associate(seen, imageWidth: width, imageHeight: height)
            retireUnmatched()
            resolveCrossings()
            startTracks(seen)
        }
        if reachesOut {
            for i in records.indices where records[i].detectionIndex >= 0 {
                records[i].reportedBox = detections[records[i].detectionIndex].box
            }
            // Emptied now, so that the buffer holds no appearance vector until the next such frame.
            inView.removeAll(keepingCapacity: true)
            swap(&inView, &scratch.inView)
        }

        var result: [Track] = []
        result.reserveCapacity(records.count)
        for record in records where record.isConfirmed && record.detectionIndex >= 0 {
            result.append(
                record.track(
                    reportingFilteredBox: options.reportsFilteredBoxes,
                    imageWidth: width, imageHeight: height))
        }
        // Records are kept in birth order, but a tentative object started before a confident one is confirmed after
        // it, and a re-identified track, or one continuing a lost track, takes back an old ID, as two tracks exchanging
        // theirs after a crossing do.
        Self.sortByID(&result)
        assert(zip(result, result.dropFirst()).allSatisfy { $0.id < $1.id })
        return result
    }

    /// All reported tracks still alive after the last update, sorted by ID: those matched in the last frame
    /// and those coasting through a miss or an occlusion (``Track/detectionIndex`` `nil`, box predicted). Not listed:
    /// a track seen in fewer than 3 frames and unseen for more than 3 since, which is no longer followed (most such
    /// tracks are false detections) but whose ID a new object in its path may still take (see step 3 above).
    public var liveTracks: [Track] {
        var tracks = records.filter { $0.isConfirmed && !$0.isDormant }.map {
            $0.track(
                reportingFilteredBox: options.reportsFilteredBoxes,
                imageWidth: lastImageWidth, imageHeight: lastImageHeight)
        }
        Self.sortByID(&tracks)
        return tracks
    }

    /// Sorts tracks by ID, unless they already are (most often: a tentative object confirmed after an object
    /// started later, or a re-identified or continued track taking back an older ID, or two tracks exchanging theirs
    /// after a crossing, are the exceptions).
    static func sortByID(_ tracks: inout [Track]) {
        if zip(tracks, tracks.dropFirst()).contains(where: { $0.id > $1.id }) { tracks.sort { $0.id < $1.id } }
    }

    /// Forgets every track (and, with re-identification, every dropped one), as at the start of a new video. IDs
    /// keep increasing: none is ever reused.
    public mutating func reset() {
        records.removeAll()
        contacts.removeAll()
        gallery.removeAll()
        jitter = DetectorJitter()
        frameCount = 0
    }

    /// Drops unmatched tracks not reported yet (a tentative object only at its second frame in a row without a
    /// detection, a stretch of background at its fifth: see ``bridgesMiss(_:)``), and reported ones lost too long (in
    /// the open too: see ``isInOpen(_:covers:)``) or gone out of the image.
    private mutating func retireUnmatched() {
        // Counted before any record is dropped or moved, against the boxes that may hide a lost object, gathered once
        // (not when the rule is off: a track is then dropped from the lost-track buffer before it could count).
        if options.openLostTrackBuffer < options.lostTrackBuffer,
            records.contains(where: { $0.detectionIndex < 0 && $0.isConfirmed })
        {
            scratch.covers.removeAll(keepingCapacity: true)
            for i in records.indices {
                if let box = coverBox(of: i) { scratch.covers.append((i, box)) }
            }
            for i in records.indices where records[i].detectionIndex < 0 && records[i].isConfirmed {
                if isInOpen(i, covers: scratch.covers) { records[i].framesUnseenInOpen += 1 }
            }
        }
        var kept = 0
        for i in records.indices {
            var record = records[i]
            if record.detectionIndex < 0 {
                guard record.isConfirmed || bridgesMiss(record) else { continue }
                record.miss()
                if isDropped(record, framesUnseen: record.framesSinceUpdate, framesInOpen: record.framesUnseenInOpen) {
                    if options.reidentification != nil { rememberDropped(record) }
                    continue
                }
            }
            records[kept] = record
            kept += 1
        }
        records.removeLast(records.count - kept)
    }

    /// Whether a reported track unmatched for `framesUnseen` frames, this one included, is dropped: lost longer than
    /// ``TrackingOptions/lostTrackBuffer``, or in the open (``isInOpen(_:covers:)``) in more than
    /// ``TrackingOptions/openLostTrackBuffer`` of those frames (`framesInOpen`), or its predicted box too small or gone
    /// out of the image (``TrackingOptions/outsideFraction``). A track matched in fewer than ``establishedHits`` frames
    /// goes dormant after ``newTrackBuffer`` frames unseen, before it is dropped (see ``TrackRecord/isDormant``),
    /// except with re-identification: it is dropped then, into the gallery of dropped tracks, which gives IDs back by
    /// appearance wherever their objects come back.
    func isDropped(_ record: TrackRecord, framesUnseen: Int, framesInOpen: Int) -> Bool {
        let box = record.predictedBox
        return framesUnseen > options.lostTrackBuffer || framesInOpen > options.openLostTrackBuffer
            || box.width < 1 || box.height < 1
            || (options.reidentification != nil && record.isPastNewTrackBuffer(framesUnseen: framesUnseen))
            || box.outsideFraction(imageWidth: lastImageWidth, imageHeight: lastImageHeight) > options.outsideFraction
    }

    /// The box with which the track `index` may hide a lost object in this frame: its detected box when matched in
    /// this frame (a reported object, or one held in the open), its predicted box when reported and unseen for fewer
    /// than ``newTrackBuffer`` frames before this one (an object in front is missed now and then too); else `nil`.
    func coverBox(of index: Int) -> BoundingBox? {
        let record = records[index]
        if record.detectionIndex >= 0 { return record.isConfirmed || record.isHeldInOpen ? record.detectionBox : nil }
        return record.isConfirmed && record.framesSinceUpdate < Self.newTrackBuffer ? record.matchBox : nil
    }

    /// Whether the track `index`, unmatched in this frame, lies in the open there
    /// (``TrackingOptions/openLostTrackBuffer``): its predicted box away from the image border
    /// (``TrackRecord/borderContact``) and not covered (``hiddenCoverage``) by another track's box of `covers` (the
    /// ``coverBox(of:)`` of each track that has one, with its index), whatever their depths. An object lost there is
    /// not hidden behind another it could come out from.
    func isInOpen(_ index: Int, covers: [(index: Int, box: BoundingBox)]) -> Bool {
        let box = records[index].matchBox
        if box.touchesBorder(imageWidth: lastImageWidth, imageHeight: lastImageHeight) { return false }
        return !covers.contains { $0.index != index && Self.covers($0.box, box) }
    }

    /// Whether ``TrackingOptions/matchesClasses`` keeps objects of classes `a` and `b` apart: both known and
    /// different. Such an object neither takes the other's boxes nor holds them back as its duplicates (unless nearly
    /// the same box: see ``crossClassDuplicateIoU``).
    @inline(__always)
    func classesDiffer(_ a: Int?, _ b: Int?) -> Bool {
        guard options.matchesClasses, let a, let b else { return false }
        return a != b
    }

    /// Starts tracks from unmatched detections: from ``TrackingOptions/newTrackThreshold``, reported once matched in
    /// ``TrackingOptions/minimumHits`` consecutive frames (at once by default; in two frames when the object appears in
    /// the open, see ``TrackingOptions/openObjectHits``); from
    /// ``TrackingOptions/tentativeTrackThreshold``, once matched in ``tentativeTrackHits`` and believable
    /// (``TrackRecord/isBelievable``).
    ///
    /// A detection lying mostly (80 % of its area) on the box of a track matched in this frame starts nothing (of
    /// another class, with ``TrackingOptions/matchesClasses``, only when nearly the same box: see
    /// ``crossClassDuplicateIoU``):
    /// it is most likely a second box on the same object (a duplicate the detector's suppression let
    /// through, or a part of the object), and a track started from it would fight the first one for the
    /// object's detections, swapping their IDs. A really new object there gets its track as soon as it moves out of the
    /// other one's box. A detection from ``TrackingOptions/newTrackThreshold`` still starts a track on the box of a
    /// track followed on weak detections (``TrackRecord/isFollowedWeakly(below:)``: scored under the detection
    /// threshold in this frame and in the one before, or unmatched there): a detector's duplicates score below the box
    /// they double, so a confident box on a weak one (most often around it) is most likely another object, in front of
    /// the partly hidden one the track follows. Held back, it left that object without a track, and the other track
    /// took its boxes in the next frames (`docs/tracking-quality.md`, thirty-third round). A middling detection, which
    /// starts only a tentative object, is held back only when almost wholly on such a box
    /// (``tentativeDuplicateOverlap``): a person walking behind another, mostly hidden, is detected weakly with a box
    /// that sticks out of the front one a little, and is followed once detected in three frames.
    private mutating func startTracks(_ detections: [TrackerDetection]) {
        for index in scratch.high where !scratch.detectionTaken[index] {
            startTrack(detections[index], index: index, confident: true)
        }
        guard options.tentativeTrackThreshold != nil else { return }
        for index in scratch.low where !scratch.detectionTaken[index] {
            startTrack(detections[index], index: index, confident: false)
        }
    }

    /// Starts a track from the unmatched detection `index` (`confident`: at or above the detection threshold), if its
    /// score and place allow (see ``startTracks(_:)``). A tentative object is not started either on the predicted
    /// box of a lost object, unless dormant (most likely that object, partly hidden, detected weakly off its
    /// prediction; a dormant track is most likely a false detection), and
    /// takes no appearance from its weak first box (see ``TrackingOptions/reidentification``).
    private mutating func startTrack(_ detection: TrackerDetection, index: Int, confident: Bool) {
        let starts = confident && detection.score >= options.newTrackThreshold
        guard starts || detection.score >= (options.tentativeTrackThreshold ?? .infinity) else { return }
        // Refused to a track by its appearance: most likely that object with a bad vector, or two objects crossing.
        if options.reidentification?.matchSimilarity != nil, scratch.vetoed[index] { return }
        let box = detection.box
        // Whether at least `share` of the detection lies on `other` (or of `other` on it, if smaller).
        func lies(on other: BoundingBox, share: Double) -> Bool {
            other.intersection(box).area >= share * min(box.area, other.area)
        }
        let matchedShare = starts ? Self.duplicateOverlap : Self.tentativeDuplicateOverlap
        let duplicate = records.contains { record in
            if classesDiffer(record.classIndex, detection.classIndex),
                (record.detectionIndex >= 0 ? record.detectionBox : record.matchBox).fastIoU(box)
                    < Self.crossClassDuplicateIoU
            {
                return false
            }
            return record.detectionIndex >= 0
                ? lies(on: record.detectionBox, share: matchedShare)
                    && !(starts && record.isFollowedWeakly(below: options.detectionThreshold))
                : !starts && record.isConfirmed && !record.isDormant
                    && lies(on: record.matchBox, share: Self.duplicateOverlap)
        }
        if duplicate { return }
        let hits = starts ? options.minimumHits : max(options.minimumHits, Self.tentativeTrackHits)
        let believable = starts || isPartlyHidden(box, except: records.count)
        records.append(TrackRecord(detection: detection, index: index, hitsToConfirm: hits, isBelievable: believable))
        let started = records.count - 1
        // An object appearing in the open, out of nowhere, waits for its next box (see `openObjectHits`).
        if starts, hits < options.openObjectHits, frameCount > 1, !isPartlyHidden(box, except: started),
            continuedLostTrack(started, beforeRetiring: false) == nil
        {
            records[started].hitsToConfirm = options.openObjectHits
            records[started].isHeldInOpen = true
        }
        if options.reidentification != nil, starts { observeAppearance(detection, record: started) }
        // The lost track whose ID the new one takes, if any, is unmatched after the association: no stage is left to
        // drop it.
        if records[started].hitsToConfirm <= 1, let lost = confirm(started, beforeRetiring: false) {
            records.remove(at: lost)
        }
    }

    /// How many frames an object started by a detection under ``TrackingOptions/newTrackThreshold`` (see
    /// ``TrackingOptions/tentativeTrackThreshold``) must be matched in before it is reported, or
    /// ``TrackingOptions/minimumHits`` if more.
    static let tentativeTrackHits = 3

    /// Whether `box`, matched to the tentative object `index` (or starting one, if `index` is past the records), is
    /// partly hidden: at least ``hiddenCoverage`` of it under the box of another reported object in front of it (or of
    /// an object held in the open; not dormant; the box detected in this frame if it has one, else its predicted box;
    /// in front: reaching as low in the image, give or take ``depthTolerance``, as for a hidden track), or touching the
    /// image border (within ``TrackRecord/borderContact``). A tentative object is reported only once one of its boxes
    /// has been (see ``TrackRecord/isBelievable``), or once it is detected confidently, or when its box lies in a lost
    /// track's path (``continuedLostTrack(_:beforeRetiring:)``: most likely that object, back). A detector scores a
    /// person partly hidden behind another, or partly out of the image, in the middle, while a box it scores so in the
    /// open, frame after frame at one spot, is most often something it half takes for a person (a poster, a coat on a
    /// stand). The price: a person in the open whom the detector only ever scores in the middle (small, far, blurred)
    /// is not reported until detected confidently; nor are two such people overlapping, since only a reported object
    /// counts as in front. On the tracking benchmark (`docs/tracking-quality.md`, thirtieth round) this won 4 more of
    /// 156 draws of the other noise models at their own frame rates, 3 more of 60 at half of them, and one more of 680
    /// of the benchmark's own model, losing none: one of the other models has two such boxes, each seen in half of the
    /// frames. A cover by a box whatever its depth, which a false box among many people soon has, won one fewer (and a
    /// cover of 10 %, 20 % or 50 % then did no better than 30 %).
    func isPartlyHidden(_ box: BoundingBox, except index: Int) -> Bool {
        if box.touchesBorder(imageWidth: lastImageWidth, imageHeight: lastImageHeight) { return true }
        for other in records.indices
        where other != index && (records[other].isConfirmed || records[other].isHeldInOpen) && !records[other].isDormant
        {
            let front = records[other].detectionIndex >= 0 ? records[other].detectionBox : records[other].matchBox
            if Self.hides(front, box) { return true }
        }
        return false
    }

    /// Whether a track not reported yet and unmatched in this frame survives it: a tentative object (one that must be
    /// matched in more frames than ``TrackingOptions/minimumHits``, started by a middling detection and not detected
    /// confidently since), or an object held in the open (``TrackingOptions/openObjectHits``). A tentative object is
    /// most often partly hidden, and detected weakly in some frames only (in one draw of the tracking benchmark, a
    /// person walking behind another was first followed 90 frames after SORT): its ``tentativeTrackHits`` frames may
    /// each come one frame apart. It is dropped at its second frame in a row without one (matched in the last frame:
    /// `framesSinceUpdate` 0), and, as a reported track, when ``isDropped(_:framesUnseen:)`` says so
    /// (``TrackingOptions/lostTrackBuffer`` 0, or its prediction out of the image). A lost track whose ID a new one
    /// took is unreported but never bridged (its `hitsToConfirm` is 0). A track started confidently and waiting for
    /// ``TrackingOptions/minimumHits`` (not held in the open) needs consecutive frames, as that option promises
    /// (`docs/tracking-quality.md`, twenty-second round). A stretch of background survives longer
    /// (``followsBackground(_:)``). Asked as a frame's association starts, it tells the tentative objects matched in
    /// the previous frame, which lost tracks leave the detections they fit clearly better
    /// (``tentativeObjectFitsBetter(_:than:lostFor:)``; so do stretches of background matched in one of the 4 frames
    /// before: a lost track passing over one leaves it the box of the background, which fits it clearly better).
    func bridgesMiss(_ record: TrackRecord) -> Bool {
        (!record.isConfirmed && record.framesSinceUpdate == 0 && record.hitsToConfirm > options.minimumHits)
            || followsBackground(record)
    }

    /// Whether the track is most likely a stretch of background that the detector boxes at middling scores, frame after
    /// frame at one spot (a poster, a shelf, a shadow: a class-agnostic localizer boxes such places in most frames): a
    /// tentative object (see ``bridgesMiss(_:)``) still unreported in its ``backgroundAge``-th frame (its first frame
    /// counting as 1). A real object scored so is most often partly hidden behind another or cut by the image border,
    /// and reported within a few frames (in the tracking benchmark's 680 draws at the own frame rate, every tentative
    /// object ever reported was reported before its 15th frame). Such a track is followed, so that its boxes start no
    /// other object, but is reported only once detected confidently (from ``TrackingOptions/newTrackThreshold``) in
    /// ``tentativeTrackHits`` frames in a row: neither one confident box, which the detector gives such a place now and
    /// then, nor a box partly hidden, which an object passing in front makes, nor a box in a lost track's path reports
    /// it any more. It survives up to ``backgroundBuffer`` frames in a row without a detection
    /// (``followsBackground(_:)``), so that its age keeps counting while the detector misses it now and then. On the
    /// tracking benchmark's `clutter` draws (`docs/tracking-quality.md`, forty-fifth round) this took the draws where
    /// LiteVision meets the best peer from 13 of 35 to 30; of the 1,308 draws of the other sets it changed 10, winning
    /// and losing none.
    func isBackground(_ record: TrackRecord) -> Bool {
        !record.isConfirmed && !record.isHeldInOpen && record.hitsToConfirm > options.minimumHits
            && record.age >= Self.backgroundAge
    }

    /// Whether an unmatched track not reported yet survives the frame as a stretch of background
    /// (``isBackground(_:)``): unmatched for fewer than ``backgroundBuffer`` frames before this one (and then not
    /// dropped as any track is: see ``isDropped(_:framesUnseen:framesInOpen:)``; with a
    /// ``TrackingOptions/lostTrackBuffer`` under 4, it survives that many frames).
    func followsBackground(_ record: TrackRecord) -> Bool {
        isBackground(record) && record.framesSinceUpdate < Self.backgroundBuffer
    }

    /// In which frame of its life (the first counting as 1) a tentative object not reported yet is taken for background
    /// (``isBackground(_:)``). Measured before the rule of three confident boxes, with ``backgroundBuffer`` 3: 15 met
    /// the best peer on 29 of the 35 `clutter` draws and changed none of the `midway` draws; 10 and 12 met it on 30 and
    /// 29 but lost a `midway` draw; 20 and 30 on 26 and 24.
    static let backgroundAge = 15

    /// Through how many frames in a row without a detection a stretch of background is followed
    /// (``followsBackground(_:)``): a tentative object survives one only. Before the rule of three confident boxes
    /// (``isBackground(_:)``), 4 met the best peer on 31 of the `clutter` draws, 3 on 29 and 2 on 27; 6, 10 and 15 did
    /// no better than 4. With it, 4 met it on 30, 3 on 28, and 15 on 30.
    static let backgroundBuffer = 4

    /// How many matched frames make a track established: one with fewer takes detections through at most
    /// ``newTrackBuffer`` frames without one, not ``TrackingOptions/lostTrackBuffer``. The first that many
    /// boxes of each track, counted per track (not with a continued track's hits), are measured whole
    /// (``PartialObservation/settlingBoxes``).
    static let establishedHits = 3
    /// For how many frames a track matched in fewer than ``establishedHits`` frames may take detections undetected.
    /// Such a track is most often a false detection, and coasting for the whole lost-track buffer it would take real
    /// objects' detections (with many false detections, the ID switches of the benchmark's noisy detector fell by a
    /// fifth). After that it is dormant (``TrackRecord/isDormant``): a real object missed longer than this just after
    /// appearing gets its ID back only when it is reported again in the track's path.
    static let newTrackBuffer = 3

    /// The IoU from which a detection of another class than a track's (with ``TrackingOptions/matchesClasses``) may
    /// still be its duplicate: a detector that suppresses overlapping boxes class by class gives one object a box for
    /// each class it half takes it for (a car and a truck), nearly the same box. A smaller object of another class on
    /// it (a person in front of the car) is its own object.
    static let crossClassDuplicateIoU = 0.5

    /// The share of a new detection's area (or of the matched box's, if smaller) covered by a matched track's
    /// box above which the detection is taken as a duplicate and starts no track.
    static let duplicateOverlap = 0.8
    /// The share, as ``duplicateOverlap``, above which a middling detection (one that can only start a tentative
    /// object) is taken as a duplicate of a matched track's box: only a box almost wholly on it, most often a part of
    /// that object. A person walking behind another, mostly hidden, is detected weakly with a box that sticks out of
    /// the front one a little (86 % of it on the front box, in the tracking benchmark's scene), and the tentative
    /// object it starts is reported only once detected in three frames (`docs/tracking-quality.md`,
    /// twenty-first round).
    static let tentativeDuplicateOverlap = 0.95

    /// The next public ID.
    mutating func takeNextID() -> Int {
        defer { nextID += 1 }
        return nextID
    }
}
