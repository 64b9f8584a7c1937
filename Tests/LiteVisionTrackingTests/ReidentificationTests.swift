import LiteVisionGeometry
import LiteVisionTracking
import Testing

/// Re-identification by appearance (`TrackingOptions.reidentification`): an object that left and came back gets its
/// old ID with the option, a new one without (ML Kit's rule).
@Suite("Tracker re-identification by appearance")
struct ReidentificationTests {
    /// A unit-ish appearance vector of 4 values pointing mostly along `axis`, with a small deterministic wobble.
    static func look(_ axis: Int, wobble: Int = 0) -> [Float] {
        var vector: [Float] = [0.05, 0.05, 0.05, 0.05]
        vector[axis] = 1
        vector[(axis + 1) % 4] += Float(wobble % 3) * 0.03
        return vector
    }

    /// Options with re-identification on (its defaults unless changed by `change`).
    static func options(_ change: (inout ReidentificationOptions) -> Void = { _ in }) -> TrackingOptions {
        var reidentification = ReidentificationOptions()
        change(&reidentification)
        var options = TrackingOptions()
        options.reidentification = reidentification
        return options
    }

    /// A walker leaving through the right border of a 640x480 view at frame 14 and coming back through the left one
    /// at frame 50 (absent 36 frames, out of the view: its track is dropped as it leaves, whatever the lost-track
    /// buffer), as detection `0` of the frames it is in; `b`, standing at x 300, is always detected after it. Boxes are
    /// clipped to the view as a detector's are.
    static func leaveAndReturn(a: [Float]?, b: [Float]?) -> [[TrackerDetection]] {
        (0..<90).map { t in
            var frame: [TrackerDetection] = []
            let x = t < 50 ? 520 + 8 * Double(t) : -50 + 8 * Double(t - 50)
            let low = max(0, x), high = min(640, x + 60)
            if high - low >= 10 {
                frame.append(
                    TrackerDetection(
                        box: BoundingBox(x: low, y: 100, width: high - low, height: 120), score: 0.9,
                        appearance: a.map { _ in look(0, wobble: t) }))
            }
            frame.append(
                TrackerDetection(
                    box: BoundingBox(x: 300, y: 300, width: 50, height: 110), score: 0.9,
                    appearance: b.map { _ in look(1, wobble: t) }))
            return frame
        }
    }

    /// The IDs given to detection 0 in the frames where it is the walker (those with two detections).
    static func walkerIDs(_ frames: [[TrackerDetection]], options: TrackingOptions) -> [Int] {
        var tracker = ObjectTracker(options: options)
        var ids: [Int] = []
        for frame in frames {
            let tracks = tracker.update(frame, imageWidth: 640, imageHeight: 480)
            if frame.count == 2, let track = tracks.first(where: { $0.detectionIndex == 0 }) { ids.append(track.id) }
        }
        return ids
    }

    @Test("An object that leaves and comes back keeps its ID with re-identification, gets a new one without")
    func leaveAndReturnKeepsID() {
        let frames = Self.leaveAndReturn(a: Self.look(0), b: Self.look(1))
        let with = Self.walkerIDs(frames, options: Self.options())
        #expect(with.count >= 50)
        #expect(Set(with) == [0], "\(with)")
        let without = Self.walkerIDs(frames, options: TrackingOptions())
        #expect(Set(without).count == 2, "\(without)")
        #expect(without.first == 0 && without.last == 2)
    }

    @Test(
        "Vectors of huge or subnormal values re-identify as any other (their norm is taken in Double)",
        arguments: [Float(3.4e38), Float(1e-40)])
    func extremeScales(scale: Float) {
        let frames = Self.leaveAndReturn(a: Self.look(0), b: Self.look(1)).map { frame in
            frame.map { detection in
                var scaled = detection
                scaled.appearance = detection.appearance?.map { $0 * scale }
                return scaled
            }
        }
        // In Float, the norm of 3.4e38-scaled looks overflowed (the vectors were dropped), and one over the norm of
        // 1e-40-scaled ones did (the track's average became infinite): the walker came back with a new ID.
        #expect(frames[0][0].appearance?.allSatisfy { $0.isFinite && $0 != 0 } == true)
        let ids = Self.walkerIDs(frames, options: Self.options())
        #expect(ids.count >= 50)
        #expect(Set(ids) == [0], "\(ids)")
    }

    @Test("A walker coming back detected weakly at first takes its ID back once detected confidently")
    func weakReturnTakesIDBack() {
        // On its way back the walker scores 0.5 in its first two frames: a tentative object, which takes no
        // appearance from weak boxes; its first confident box (frame 52) reports it, and looks its ID up.
        var frames = Self.leaveAndReturn(a: Self.look(0), b: Self.look(1))
        for t in 50...51 {
            let walker = frames[t][0]
            frames[t][0] = TrackerDetection(box: walker.box, score: 0.5, appearance: walker.appearance)
        }
        var tracker = ObjectTracker(options: Self.options())
        var reported: [[Int]] = []
        for frame in frames { reported.append(tracker.update(frame, imageWidth: 640, imageHeight: 480).map(\.id)) }
        #expect(reported[49] == [1])  // only the one standing
        #expect(reported[50] == [1] && reported[51] == [1])  // the walker, tentative, is not reported yet
        #expect(reported[52] == [0, 1])
        #expect(reported[89] == [0, 1])
    }

    @Test("With the option off, appearance vectors change nothing: the same tracks as without them")
    func offIgnoresAppearance() {
        let withVectors = Self.leaveAndReturn(a: Self.look(0), b: Self.look(1))
        let withoutVectors = Self.leaveAndReturn(a: nil, b: nil)
        var first = ObjectTracker(), second = ObjectTracker()
        for (a, b) in zip(withVectors, withoutVectors) {
            #expect(
                first.update(a, imageWidth: 640, imageHeight: 480)
                    == second.update(b, imageWidth: 640, imageHeight: 480))
        }
        #expect(first.rememberedIDs.isEmpty)
    }

    /// Objects shown together, each in its own place, for 5 frames, then an empty frame (a 0-frame lost-track buffer
    /// drops them all then). Returns each object's ID in the last of the 5 frames (-1 if unreported).
    static func show(_ looks: [[Float]?], tracker: inout ObjectTracker) -> [Int] {
        let frame = looks.enumerated().map { k, look in
            TrackerDetection(
                box: BoundingBox(x: 20 + 100 * Double(k), y: 100, width: 50, height: 100), score: 0.9,
                appearance: look)
        }
        var tracks: [Track] = []
        for _ in 0..<5 { tracks = tracker.update(frame, imageWidth: 640, imageHeight: 480) }
        _ = tracker.update([], imageWidth: 640, imageHeight: 480)
        return frame.indices.map { k in tracks.first { $0.detectionIndex == k }?.id ?? -1 }
    }

    /// A tracker with re-identification on and a lost-track buffer of 0.
    static func tracker(_ change: (inout ReidentificationOptions) -> Void = { _ in }) -> ObjectTracker {
        var options = options(change)
        options.lostTrackBuffer = 0
        return ObjectTracker(options: options)
    }

    @Test("Two objects that look alike are not confused: an ambiguous or weak match gets a new ID")
    func similarLooksAreNotConfused() {
        var tracker = Self.tracker()
        // A and C look alike (cosine 0.995); D is different from both.
        let a: [Float] = [1, 0.1, 0, 0], c: [Float] = [1, 0.2, 0, 0], d: [Float] = [0, 0, 1, 0]
        #expect(Self.show([a, c, d], tracker: &tracker) == [0, 1, 2])
        #expect(tracker.rememberedIDs == [0, 1, 2])
        // A again: A and C are within the margin of each other, so neither ID is given.
        #expect(Self.show([a], tracker: &tracker) == [3])
        // D again: unambiguous, its ID comes back (and leaves the gallery while D is in view).
        #expect(Self.show([d], tracker: &tracker) == [2])
        // Something unlike anyone remembered (below the least similarity): a new ID.
        #expect(Self.show([[0, 0, 0, 1]], tracker: &tracker) == [4])
        // With a margin of 0, the best entry wins even when close: C's look gives C's ID back.
        var loose = Self.tracker { $0.margin = 0 }
        #expect(Self.show([a, c], tracker: &loose) == [0, 1])
        #expect(Self.show([c], tracker: &loose) == [1])
    }

    @Test("Two distinct objects coming back in the other order each get their own ID")
    func distinctReturnsInAnyOrder() {
        var tracker = Self.tracker()
        #expect(Self.show([Self.look(0), Self.look(1)], tracker: &tracker) == [0, 1])
        #expect(Self.show([Self.look(1, wobble: 1)], tracker: &tracker) == [1])
        #expect(Self.show([Self.look(0, wobble: 2)], tracker: &tracker) == [0])
        #expect(tracker.rememberedIDs == [1, 0])
        // Both at once, in the other order of detections.
        #expect(Self.show([Self.look(1), Self.look(0)], tracker: &tracker) == [1, 0])
    }

    @Test("The gallery is bounded: the oldest dropped track goes first, and none is kept past its memory")
    func galleryIsBounded() {
        var tracker = Self.tracker {
            $0.capacity = 3
            $0.memory = 40
        }
        // Six different looks (16 values, one axis each), one after another.
        let looks: [[Float]] = (0..<6).map { k in (0..<16).map { $0 == k ? 1 : 0 } }
        #expect(looks.map { Self.show([$0], tracker: &tracker) } == (0..<6).map { [$0] })
        #expect(tracker.rememberedIDs == [3, 4, 5])
        // The first object is forgotten (a new ID); the sixth comes back.
        #expect(Self.show([looks[0]], tracker: &tracker) == [6])
        #expect(Self.show([looks[5]], tracker: &tracker) == [5])
        #expect(tracker.rememberedIDs == [4, 6, 5])
        // 45 empty frames later, past the 40-frame memory: the fifth object gets a new ID.
        for _ in 0..<45 { _ = tracker.update([], imageWidth: 640, imageHeight: 480) }
        #expect(Self.show([looks[4]], tracker: &tracker) == [7])
        #expect(tracker.rememberedIDs.count <= 3)
        // A capacity under 1 acts as 1.
        let clamped = ObjectTracker(options: Self.options { $0.capacity = -5 })
        #expect(clamped.options.reidentification?.capacity == 1)
    }

    @Test("Invalid vectors are ignored: not finite, all zeros, or another length than the first")
    func invalidVectorsAreIgnored() {
        var tracker = Self.tracker()
        let bad: [[Float]?] = [
            [1, 0, 0, 0], [.nan, 1, 0, 0], [0, 0, 0, 0], [1, 0, 0], [.infinity, 0, 0, 0], [], nil,
        ]
        #expect(bad.map { Self.show([$0], tracker: &tracker) } == (0..<7).map { [$0] })
        #expect(tracker.rememberedIDs == [0])
        // Another look starts a new ID; the first one's look brings back ID 0.
        #expect(Self.show([[0, 1, 0, 0]], tracker: &tracker) == [7])
        #expect(Self.show([[1, 0, 0, 0]], tracker: &tracker) == [0])
        // reset() forgets the gallery and the vectors' length: a 3-value vector is valid after it.
        tracker.reset()
        #expect(tracker.rememberedIDs.isEmpty)
        #expect(Self.show([[1, 0, 0]], tracker: &tracker) == [8])
        #expect(Self.show([[1, 0, 0]], tracker: &tracker) == [8])
    }

    @Test("With minimumHits 2, the ID is looked up when the object is confirmed, from its average look")
    func reidentifiedOnConfirmation() {
        var options = Self.options()
        options.lostTrackBuffer = 0
        options.minimumHits = 2
        var tracker = ObjectTracker(options: options)
        #expect(Self.show([Self.look(2)], tracker: &tracker) == [0])
        #expect(Self.show([Self.look(3)], tracker: &tracker) == [1])
        #expect(Self.show([Self.look(2, wobble: 1)], tracker: &tracker) == [0])
    }

    @Test("Classes are respected: a look of another class does not take the ID")
    func classesAreRespected() {
        var tracker = Self.tracker()
        let place = BoundingBox(x: 100, y: 100, width: 50, height: 100)
        let look = Self.look(0)
        for _ in 0..<5 {
            _ = tracker.update(
                [TrackerDetection(box: place, score: 0.9, classIndex: 1, appearance: look)], imageWidth: 640,
                imageHeight: 480)
        }
        _ = tracker.update([], imageWidth: 640, imageHeight: 480)
        // Each object comes back in the open, reported from its second box (`TrackingOptions.openObjectHits`).
        func twice(_ classIndex: Int) -> [[Int]] {
            (0...1).map { _ in
                tracker.update(
                    [TrackerDetection(box: place, score: 0.9, classIndex: classIndex, appearance: look)],
                    imageWidth: 640, imageHeight: 480
                )
                .map(\.id)
            }
        }
        #expect(twice(2) == [[], [1]])
        _ = tracker.update([], imageWidth: 640, imageHeight: 480)
        #expect(twice(1) == [[], [0]])
    }

    @Test("The appearance gate: of two detections on an object, the one that looks like it is taken")
    func appearanceGate() {
        func frames(_ tracker: inout ObjectTracker) -> [Track] {
            let a = BoundingBox(x: 100, y: 100, width: 60, height: 120)
            let b = BoundingBox(x: 400, y: 100, width: 60, height: 120)
            for _ in 0..<10 {
                _ = tracker.update(
                    [
                        TrackerDetection(box: a, score: 0.9, appearance: Self.look(0)),
                        TrackerDetection(box: b, score: 0.9, appearance: Self.look(1)),
                    ], imageWidth: 640, imageHeight: 480)
            }
            // On A's place, a box that looks like B (the best IoU) and a shifted one that looks like A.
            return tracker.update(
                [
                    TrackerDetection(box: a, score: 0.9, appearance: Self.look(1)),
                    TrackerDetection(
                        box: BoundingBox(x: 115, y: 100, width: 60, height: 120), score: 0.9, appearance: Self.look(0)),
                    TrackerDetection(box: b, score: 0.9, appearance: Self.look(1)),
                ], imageWidth: 640, imageHeight: 480)
        }
        var gated = ObjectTracker(options: Self.options())
        let withGate = frames(&gated)
        #expect(withGate.map(\.id) == [0, 1])
        #expect(withGate.map(\.detectionIndex) == [1, 2])
        var ungated = ObjectTracker(options: Self.options { $0.matchSimilarity = nil })
        let withoutGate = frames(&ungated)
        #expect(withoutGate.map(\.id) == [0, 1, 2])
        #expect(withoutGate.map(\.detectionIndex) == [0, 2, 1])
        var plain = ObjectTracker()
        #expect(frames(&plain) == withoutGate)
    }
}
