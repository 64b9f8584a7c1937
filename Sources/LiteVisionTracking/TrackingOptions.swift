/// How objects are followed from frame to frame (LiteVision addition; ML Kit's tracker has no settings): the
/// settings of an `ObjectDetector` in stream mode, under its options' `tracking`. The defaults suit a detector
/// running on every frame of a 15–30 fps video; for fewer frames a second, set ``frameRate``.
///
/// **What starts an object.** The detector's `detectionThreshold` decides what counts as an object: detections
/// at or above it are confident and start new objects, reported at once (used alone, an `ObjectTracker` reports one
/// that appears in the open from its second box: ``openObjectHits``). In an object detector, weaker detections,
/// down to ``rescueThreshold``, can only keep an existing object's ID alive (ByteTrack's low-score recovery), so an
/// object whose score drops while it is partly hidden keeps its identity, while low scores alone never create one.
/// An `ObjectTracker` used alone also starts an object from a middling score (from ``tentativeTrackThreshold``,
/// 0.3), reported once it has been detected in three frames, never two in a row without a detection (at any score
/// from ``rescueThreshold`` after the first), and seen partly hidden behind another object or cut by the image border
/// in one of them (or detected confidently, or back in the path of an object lost from view), before its 15th frame;
/// from then on, only once detected confidently in three frames in a row (a place the detector boxes at middling scores
/// frame after frame is most often background).
///
/// **Cost and gating.** Tracks are paired with detections by the overlap (IoU) of the box a motion model (a Kalman
/// filter) predicts, limited to the image, and the detected box. A pair is allowed only when `IoU >= matchIoUThreshold`
/// (``rescueMatchIoUThreshold`` for weak detections; see ``frameRate`` for middling ones under 20 fps) and, with
/// ``matchesClasses``, when the classes agree. An object that was not matched in the previous frame and whose IoU with
/// a confident detection falls short is compared again with both boxes grown by 25 % of their size on each side
/// (C-BIoU's buffered IoU), since its prediction has drifted without measurements (so is an object predicted to reach
/// past one image border it moves toward, which may have turned back there, its boxes grown across that border only;
/// under 20 fps every object: see ``frameRate``). A weak box much smaller than the object along one axis and lying
/// mostly inside the prediction — a partly hidden object — is compared after being completed to the object's remembered
/// size, once the object's track has seen 3 boxes (before that, its size is not settled). An object seen once, at an
/// image border, and a box at the same border are compared by their extents along it (an object entering is a sliver
/// first, wider each frame). An object seen in two frames, the second the previous one, is also compared (not under 20
/// fps) as if it stood at its second box (their IoU, when at least 0.55): its speed so far is the difference of two
/// boxes, maybe jitter alone. Confident and weak detections are paired in one assignment (ByteTrack pairs the confident
/// ones first, which lets a visible object's box take the track of a hidden object beside it whose own box is weak):
/// the tracker picks the pairs with the greatest total gain, a pair's gain being its IoU minus its gate, halved for a
/// weak detection (a confident box that fits as well is preferred; scaled by 0.85 only, from
/// ``tentativeTrackThreshold`` up: a middling box is most often an object partly hidden), halved for an object lost in
/// the previous frame while hidden behind an object matched there, or detected only weakly there while hidden behind an
/// object detected confidently (so the two do not take the visible object's box in turns), scaled by 0.7 for an object
/// measured in fewer than 3 frames of its own, whose speed is not known yet (not under 20 fps: see ``frameRate``), and
/// scaled by one minus half the difference between the detection's score and the score of the object's last detection
/// (an object going out of sight behind another is detected ever more weakly, the one in front confidently: a confident
/// box most likely belongs to the object detected confidently so far). It is solved exactly with the Hungarian method
/// on each connected group of overlapping boxes.
public struct TrackingOptions: Sendable, Hashable {
    /// The lowest detection score that can keep an existing object alive: detections from this score up to
    /// the detection threshold can only rescue an object, never start one (except, in an `ObjectTracker` used alone,
    /// those from ``tentativeTrackThreshold``). Values above the detection threshold act as the detection threshold.
    ///
    /// Default `nil`: in an `ObjectTracker` used alone, detections of any score (it is fed what a detector kept, and
    /// roboflow's trackers likewise keep objects alive on boxes of any score); in an object detector,
    /// ``detectorRescueThreshold`` (0.1), down to which the detector asks its model for boxes. Until the
    /// thirty-seventh round of `docs/tracking-quality.md` a tracker used alone ignored boxes under 0.1 too: a detector
    /// that scores some real boxes under 0.1 then cost it a box per such detection, where the peers' trackers kept it.
    public var rescueThreshold: Float?
    /// The rescue threshold of an object detector when ``rescueThreshold`` is `nil`: 0.1. The detector asks its model
    /// for boxes down to it (lower, a model such as the SSD detectors' gives hundreds of boxes of near-zero score).
    public static let detectorRescueThreshold: Float = 0.1
    /// The least IoU between an object's predicted box and a detection for them to be paired (the cost
    /// `1 - IoU` must not exceed `1 - matchIoUThreshold`). Default 0.3.
    public var matchIoUThreshold: Double = 0.3
    /// The least IoU for a weak (rescue) detection to be paired. Stricter than ``matchIoUThreshold``, since a
    /// low score is weaker evidence. Default 0.45 (ByteTrack's second stage uses 0.5; measured in
    /// `docs/tracking-quality.md`). Under 20 fps (``frameRate``), middling detections (from
    /// ``tentativeTrackThreshold`` up) take ``matchIoUThreshold`` instead.
    public var rescueMatchIoUThreshold: Double = 0.45
    /// For how many frames an object that is not detected (occluded, or missed by the detector) keeps its ID, coasting
    /// on its motion model, while its predicted box stays in the image (see ``outsideFraction``; of them, at most
    /// ``openLostTrackBuffer`` in plain view). Default 45 (1.5
    /// seconds at 30 fps; ByteTrack's 30 until the thirty-second round of `docs/tracking-quality.md`, where 45 won 3
    /// more of the tracking benchmark's 836 draws at the sequences' own frame rates, and as many under 20 fps, with
    /// larger margins); 0 drops it at once; negative values act as 0. An object detected in fewer than 3 frames so far
    /// is matched to detections for at most 3 frames without one (most such objects are false detections). A lost
    /// object that comes back off its prediction within this time (it stopped, turned or sped up while hidden, or it
    /// was missed for more than 3 frames just after it appeared) takes its ID back when its new box lies in the lost
    /// track's path, as `ObjectTracker` explains.
    public var lostTrackBuffer: Int = 45
    /// For how many frames in the open an object that is not detected keeps its ID: frames in which its predicted box
    /// lies neither under the box of another reported object (30 % of it or more, whatever their depths: its box
    /// detected in that frame, or its predicted box if it was missed there and detected in one of the 3 frames
    /// before) nor at the image border, counted over the frames it has been lost (at most ``lostTrackBuffer``).
    /// Default 15 (half a second at 30 fps). An object hidden behind another keeps its ID for the whole
    /// ``lostTrackBuffer``; one in plain view that the detector misses more than 15 times is most often gone — it
    /// vanished inside the image, or it was a false detection — and a new object appearing where its prediction has
    /// coasted to would take its ID. An object hidden by something the tracker does not follow (a pillar, a parked car
    /// the detector does not report) is in the open too: for scenes with such occluders, set this to
    /// ``lostTrackBuffer`` or more, which turns the rule off. 0 drops an object at its first frame undetected in the
    /// open; negative values act as 0. On the tracking benchmark (`docs/tracking-quality.md`, thirty-eighth round) 15
    /// won 4 more of the 70 generic draws (boxes that vanish inside the image, and new ones appearing there) and one
    /// more of the other 1148, losing none; 10 and 8 lost 2 and 3 of the 680 at the sequences' own rates: a person who
    /// stops while hidden is in the open once their prediction coasts out from behind the one who hides them.
    public var openLostTrackBuffer: Int = 15
    /// How many consecutive frames a new object must be detected before it is reported and given an ID. Default 1 (at
    /// once, as ML Kit; but see ``openObjectHits`` for an object appearing in the open); 2 or 3 filter out one-frame
    /// false positives; values under 1 act as 1. An object started from
    /// ``tentativeTrackThreshold`` needs 3, or this if more; with this under 3, its frames need not be consecutive: a
    /// single frame without a detection between two does not restart its count (see ``tentativeTrackThreshold``). With
    /// tentative objects on (an `ObjectTracker` used alone), a weak detection counts after the first frame as a
    /// confident one does; without them (an object detector), only confident ones count.
    public var minimumHits: Int = 1
    /// How many frames a new object that appears in the open must be detected in before it is reported, when that is
    /// more than ``minimumHits``: an object started by a detection from ``newTrackThreshold`` after the tracker's
    /// first frame (since it was made or reset), away from the image border, not partly hidden behind another object
    /// in front of it (as for ``tentativeTrackThreshold``) and not taking a lost object's ID (back in its path, as
    /// `ObjectTracker` explains). Its later boxes may score down to ``rescueThreshold``, and be one frame apart (a
    /// single frame without a detection between two does not restart the count); meanwhile it takes detections, and
    /// hides what is behind it, as a reported object does. Default 2, for an `ObjectTracker` used alone: real objects
    /// come into view at the border, from behind others, or are there from the first frame, while a false detection
    /// that a detector scores as confidently as real objects pops up anywhere and seldom comes back at the same place
    /// in the next frame; an object that does appear out of nowhere is reported one frame later, with its ID from then
    /// on. On the tracking benchmark (`docs/tracking-quality.md`, thirty-fourth round) it changed no draw of the
    /// benchmark's own noise model at the sequences' own frame rates (two fewer of 120 under 20 fps) and won 5 more of
    /// 40 where false detections score as high as real ones. 1 reports every new object at once, as ML Kit does
    /// (values under 1 act as 1); an object detector sets 1, whatever it is here.
    public var openObjectHits: Int = 2
    /// An object left undetected whose predicted box lies more than this fraction (by area) outside the image
    /// has left the view: it is dropped at once, and gets a new ID if it comes back, as in ML Kit. Default 0.8 (an
    /// object still a fifth inside, missed once at the border, keeps its ID).
    public var outsideFraction: Double = 0.8
    /// Whether an object only matches detections of its own class (when both have a class). Default `true`;
    /// it makes no difference with a class-agnostic detector. It also keeps a detection of another class lying on an
    /// object's box (a person in front of a car) from being taken as that object's duplicate box, unless the two
    /// boxes are nearly the same (IoU 0.5 or more: a detector that gives one object a box for each of two classes).
    public var matchesClasses: Bool = true
    /// Report the motion model's filtered box (smoother, may lag a little) instead of exactly the detected box
    /// (as ML Kit reports). Default `false`.
    public var reportsFilteredBoxes: Bool = false
    /// Re-identification by appearance: an object that left the view (or stayed hidden past ``lostTrackBuffer``, or
    /// missed in plain view past ``openLostTrackBuffer``) and
    /// comes back looking the same gets its old ID back, from the appearance vectors of the detections
    /// (`TrackerDetection.appearance`, with an `ObjectTracker` used alone: an object detector's stream mode computes
    /// no appearance yet, so there it has nothing to work with). Default `nil`: off, and an object that comes back
    /// gets a new ID, as in ML Kit. See `ReidentificationOptions` (in `LiteVisionTracking`).
    public var reidentification: ReidentificationOptions? = nil

    /// Detections at or above this score are confident: they take part in the association with the confident gate
    /// and may start objects reported at once (if also at or above ``newTrackThreshold``; see
    /// ``tentativeTrackThreshold`` for lower scores). Default 0.7, for an `ObjectTracker` used alone (the
    /// `LiteVisionTracking` library): an object detector sets it to its own detection threshold (its options'
    /// threshold), whatever it is here. Most false detections of a detector score below its true ones; a
    /// false object that starts a track is reported at once (``minimumHits`` 1) unless it appears in the open
    /// (``openObjectHits``), so the bar to start one is set high, while weaker detections still keep known objects
    /// alive (``rescueThreshold``).
    public var detectionThreshold: Float = 0.7
    /// A confident detection left unmatched starts a new object, reported at once (from its second box if it appears
    /// in the open: ``openObjectHits``), only at or above this score (see ``tentativeTrackThreshold`` for lower
    /// scores). Default 0.7, for an `ObjectTracker` used alone: an object
    /// detector sets it to its own detection threshold.
    public var newTrackThreshold: Float = 0.7
    /// A detection left unmatched whose score is under ``newTrackThreshold`` but at or above this one starts a
    /// tentative object, reported (given an ID) only once it has been detected in 3 frames, the next one each time or
    /// the one after (it survives a single frame without a detection, unless ``lostTrackBuffer`` is 0 or its prediction
    /// has left the image; ``minimumHits`` consecutive frames instead, if 3 or more), and once one of its boxes was
    /// partly hidden — at least 30 % of it under the box of another reported object in front of it (reaching as low in
    /// the image) — or cut by the image border, or its box lies in a lost object's path (most likely that object,
    /// back); or as soon as a confident detection from ``newTrackThreshold`` is matched to it, as if that one had
    /// started it. A detector scores a person partly hidden or partly out of the image in the middle; a box it scores
    /// so in the open, frame after frame at one spot, is most often something it half takes for a person (a poster, a
    /// coat on a stand), which the tracker then does not report (thirtieth round of `docs/tracking-quality.md`). One
    /// still unreported in its 15th frame is taken for such a place for good: it is followed (through up to 4 frames in
    /// a row without a detection, or ``lostTrackBuffer`` if fewer), so that its boxes start nothing else, but reported
    /// only once detected confidently in three frames in a row; neither one confident box, which a detector gives such
    /// a place now and then, nor an object passing in front of it reports it any more (forty-fifth round: a
    /// class-agnostic localizer boxes stretches of background in most frames, at middling scores). A weak box of any
    /// score from ``rescueThreshold`` is paired with a tentative object as with any object (the gate
    /// ``rescueMatchIoUThreshold``, or under 20 fps ``matchIoUThreshold`` from this score up: see ``frameRate``). A
    /// middling box starts none on the predicted box of a lost object (most likely that object, detected off its
    /// prediction), nor almost wholly on the box of an object matched in the frame (a part of it, most likely; a box
    /// that sticks out of it a little, such as that of a person walking mostly hidden behind another, does start one).
    /// Default 0.3, for an `ObjectTracker` used alone: a partly hidden person, whom a detector scores 0.3–0.7 frame
    /// after frame, is followed, while a false detection, which seldom comes back at the same place three times within
    /// a few frames, is not (`docs/tracking-quality.md`, fourth, twenty-first and twenty-second rounds). `nil` turns it
    /// off. An object detector turns it off, as `track --threshold` does: ML Kit reports only objects detected at or
    /// above the detector's threshold. Values under ``rescueThreshold`` (when set) act as it; values at or above
    /// ``newTrackThreshold`` start no tentative object.
    ///
    /// It also sets how much a weak box weighs in the assignment: from this score up (and under ``detectionThreshold``)
    /// 0.85 of a confident box's weight, under it half (see the cost above).
    public var tentativeTrackThreshold: Float? = 0.3

    /// Whether the camera is taken as still (`.fixed`, the default, as ML Kit) or its motion is
    /// estimated from the detections (`.estimated`), for a handheld, panning, shaking or zooming
    /// camera.
    ///
    /// A moving camera moves every object in the image at once: a pan or a shake of a few tens of pixels takes
    /// the tracks' predictions off their objects, and a zoom changes every size, so objects get new IDs or swap
    /// them. With `.estimated`, the tracker measures, before matching, the zoom and shift that
    /// carry the predictions of the objects followed in the previous frame onto this frame's confident detections
    /// (a robust fit on the pairs that agree; `ObjectTracker.lastCameraMotion` tells what was applied), and moves every
    /// track by it
    /// — lost ones too. The estimate is applied only when most objects agree on it and it moves them by more than
    /// the motion model's own noise, so a still camera is left alone, and a crowd walking one way, whose motion the
    /// tracks already predict, is not taken for a pan. It needs at least 3 objects followed for 3 frames or more;
    /// with fewer, the camera is taken as still. A motion you know (from image registration, a gimbal or an IMU) can
    /// instead be given per frame to `ObjectTracker.update(_:imageWidth:imageHeight:cameraMotion:)`, in either
    /// mode. Cost: about 3 microseconds more per frame with 20 objects (the benchmark's `sim-crowd`: 4.2 µs per
    /// frame without, 7.5 with); nothing with `.fixed`.
    public var cameraMotion: CameraMotionMode = .fixed

    /// The rate the detections come at, in frames per second, when known. Default `nil`: unknown, and the tracker
    /// works as at 20 fps and more (the other defaults were tuned at 25–30 fps); so does any value not finite or not
    /// above 0.
    ///
    /// Under ``lowFrameRateThreshold`` (20 fps) — a slow camera, or a detector run on every second or third frame —
    /// objects move and turn two to five times farther between frames, and six rules change. The motion model's
    /// velocity noise becomes at least a tenth of the object's speed a frame (instead of `1/250` of its size), so a
    /// walker who stops, turns back or sets off again is followed within a frame or two, where at 25–30 fps the
    /// velocity follows a trend over many frames to keep people who cross apart (and follows a maneuver within a few,
    /// once the detections keep falling on one side of the predictions); its position noise is `1/20` of the size
    /// instead of `1/30` (twenty-eighth round). And, with ``tentativeTrackThreshold`` on (an `ObjectTracker` used
    /// alone; an object detector turns it off), a middling detection (from that score up) is paired with the confident
    /// gate ``matchIoUThreshold`` instead of ``rescueMatchIoUThreshold``, its gain in the assignment measured from that
    /// gate too: a partly hidden object turning is off its prediction. And every track whose IoU with a confident
    /// detection falls short is compared again with both boxes grown (C-BIoU's buffer, see the cost above), not only a
    /// track lost in the previous frame: a new track's prediction, its speed not known yet, or a turning object's soon
    /// misses the object's box. And a track of two boxes is no longer also compared as if its object stood at its
    /// second box (see the cost above): there the offset between the two boxes is more often the object's step than the
    /// detector's jitter (twenty-fifth round). And an object measured in fewer than 3 frames keeps its full weight in
    /// the assignment (see the cost above), for the same reason (twenty-ninth round). And, with tentative objects on, a
    /// weak detection under ``tentativeTrackThreshold`` moves the track that takes it less, measured with 1.5 times the
    /// usual deviation: more often a false box than a middling one, it bent a path that may turn each frame
    /// (twenty-ninth round). On the tracking benchmark (`docs/tracking-quality.md`, sixteenth round), for the first
    /// three rules, with the tracker used alone, at a half, a third and a fifth of the sequences' 25–30 fps this won
    /// both HOTA and IDF1 against the best of four open trackers in 34, 27 and 29 of 40 draws (28, 21 and 22 without);
    /// the first two rules at 25–30 fps won 17 fewer of 596 draws (and one fewer of 84 others), which is why they wait
    /// for a low frame rate. From 20 fps up the tracker works as with no frame rate given. It does not scale
    /// ``lostTrackBuffer`` and ``openLostTrackBuffer``, which count frames (the command line's `track --detections
    /// --frame-rate` scales them to 1.5 and 0.5 seconds; at low rates neither did better on the benchmark for the
    /// first: seventeenth round). Left `nil` in an object
    /// detector's options, it is measured from the frames' timestamps when they are given (`ObjectDetector`'s
    /// `results(in:timestamp:)`, as `VideoPipeline` and `litevision track` on video do; `litevision track --frame-rate`
    /// on video sets it, and leaves the buffer as it is).
    public var frameRate: Double? = nil

    /// The frame rate under which ``frameRate`` changes the motion model, the middling gate, the buffered IoU and the
    /// weight in the motion model of weak boxes under ``tentativeTrackThreshold``, and turns off the comparison of a
    /// two-box track with its second box and the lower weight of young tracks: 20 fps.
    public static let lowFrameRateThreshold = 20.0

    /// Whether ``frameRate`` is known and under ``lowFrameRateThreshold``.
    var isLowFrameRate: Bool {
        guard let frameRate, frameRate.isFinite, frameRate > 0 else { return false }
        return frameRate < Self.lowFrameRateThreshold
    }

    /// Whether detections under ``newTrackThreshold`` may start tentative objects: ``tentativeTrackThreshold`` is set
    /// and under it.
    var startsTentativeObjects: Bool {
        guard let tentativeTrackThreshold else { return false }
        return tentativeTrackThreshold < newTrackThreshold
    }

    /// The defaults.
    public init() {}

    /// These options as a detector whose detection threshold is `detectionThreshold` runs them: both
    /// thresholds set to it, the rescue threshold (``detectorRescueThreshold`` when `nil`) capped at it, no tentative
    /// objects below it
    /// (``tentativeTrackThreshold`` `nil`), new objects reported at once wherever they appear (``openObjectHits`` 1),
    /// and out-of-range values clamped (``lostTrackBuffer`` and ``openLostTrackBuffer`` to at least 0, ``minimumHits``
    /// to at least 1). Computed once when the detector is made.
    package func resolved(detectionThreshold: Float) -> TrackingOptions {
        var options = self
        options.detectionThreshold = detectionThreshold
        options.newTrackThreshold = detectionThreshold
        options.rescueThreshold = min(rescueThreshold ?? Self.detectorRescueThreshold, detectionThreshold)
        options.tentativeTrackThreshold = nil
        options.lostTrackBuffer = max(0, lostTrackBuffer)
        options.openLostTrackBuffer = max(0, openLostTrackBuffer)
        options.minimumHits = max(1, minimumHits)
        options.openObjectHits = 1
        options.reidentification = reidentification?.clamped
        return options
    }
}
