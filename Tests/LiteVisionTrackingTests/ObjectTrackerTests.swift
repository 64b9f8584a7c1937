import LiteVisionGeometry
import LiteVisionTestSupport
import LiteVisionTracking
import Testing

@Suite("Object tracker")
struct ObjectTrackerTests {
    @Test("One moving object keeps ID 0; the track reports its detection and counts")
    func stableID() {
        var tracker = ObjectTracker()
        let frames = linearPath(from: (100, 100), velocity: (5, 2), count: 20).map { [$0] }
        let output = run(&tracker, frames)
        for (t, tracks) in output.enumerated() {
            #expect(tracks.count == 1)
            #expect(tracks.first?.id == 0)
            #expect(tracks.first?.detectionIndex == 0)
            #expect(tracks.first?.hits == t + 1)
            #expect(tracks.first?.age == t + 1)
            #expect(tracks.first?.framesSinceUpdate == 0)
            // By default the reported box is the detection's.
            #expect(tracks.first?.box == frames[t][0].box)
        }
        #expect(tracker.frameCount == 20)
    }

    @Test("Tracks are sorted by ID and point at their own detection whatever the detection order")
    func detectionIndices() {
        var tracker = ObjectTracker()
        let a = linearPath(from: (50, 50), velocity: (4, 0), count: 10)
        let b = linearPath(from: (400, 300), velocity: (-4, 0), count: 10)
        for t in 0..<10 {
            let frame = t % 2 == 0 ? [a[t], b[t]] : [b[t], a[t]]
            let tracks = tracker.update(frame, imageWidth: 640, imageHeight: 480)
            #expect(tracks.map(\.id) == [0, 1])
            for track in tracks {
                #expect(frame[track.detectionIndex!].box == (track.id == 0 ? a[t].box : b[t].box))
            }
        }
    }

    @Test("A detection missing for 1 to 3 frames keeps its ID; the track coasts meanwhile", arguments: [1, 2, 3])
    func flickerMissing(gap: Int) {
        var tracker = ObjectTracker()
        let path = linearPath(from: (100, 200), velocity: (6, 0), count: 30)
        for t in 0..<30 {
            let missing = (10..<(10 + gap)).contains(t)
            let tracks = tracker.update(missing ? [] : [path[t]], imageWidth: 640, imageHeight: 480)
            if missing {
                // ML Kit reports detected objects only; the coasting track is still alive, predicted on the path.
                #expect(tracks.isEmpty)
                let live = tracker.liveTracks
                #expect(live.count == 1 && live[0].detectionIndex == nil && live[0].framesSinceUpdate == t - 9)
                #expect(live[0].box.iou(path[t].box) > 0.8)
            } else {
                #expect(tracks.map(\.id) == [0])
            }
        }
    }

    @Test("A new object whose second box jumped off its first keeps its track when its third box fits the second")
    func secondBoxJitter() {
        // An object standing at x = 200, its box cut by the image's bottom border, detected at 0.5 (a tentative object,
        // reported from its third box), its second box 17 px off (noise): the motion model takes that as its speed, and
        // its prediction for the third frame (x = 233) overlaps a box back at x = 200 by an IoU of 0.29, under the
        // gate; the box fits the second by 0.56.
        func ids(third: Double, frameRate: Double? = nil) -> [[Int]] {
            var options = TrackingOptions()
            options.frameRate = frameRate
            var tracker = ObjectTracker(options: options)
            let frames = [box(200, 400), box(217, 400), box(third, 400), box(third, 400)]
            return run(&tracker, frames.map { [detection($0, score: 0.5)] }).map { $0.map(\.id) }
        }
        #expect(ids(third: 200) == [[], [], [0], [0]])
        // A third box that fits the second by an IoU under 0.55 (0.5) starts another tentative object.
        #expect(ids(third: 197) == [[], [], [], []])
        // Under 20 fps the offset of a new track's second box is more often the object's step: no such comparison.
        #expect(ids(third: 200, frameRate: 10) == [[], [], [], []])
    }

    @Test("A score dropping to 0.2 for a few frames keeps the object reported with its ID (low-score recovery)")
    func flickerLowScore() {
        var path = linearPath(from: (100, 200), velocity: (6, 0), count: 30)
        for t in 10..<15 { path[t].score = 0.2 }
        var tracker = ObjectTracker()
        let output = run(&tracker, path.map { [$0] })
        #expect(output.allSatisfy { $0.map(\.id) == [0] })
        #expect(output[12].first?.score == 0.2)

        // Without low-score recovery (weak scores ignored), the object is not reported during the drop; it gets its
        // ID back afterwards only thanks to the track buffer.
        var options = TrackingOptions()
        options.rescueThreshold = 0.3
        var plain = ObjectTracker(options: options)
        let plainOutput = run(&plain, path.map { [$0] })
        #expect(plainOutput[10...14].allSatisfy { $0.isEmpty })
        #expect(plainOutput[15].map(\.id) == [0])
    }

    @Test("Scores under the tentative threshold never start a track, nor any under the new-track one without it")
    func lowScoresDoNotStartTracks() {
        var tracker = ObjectTracker()
        // Under the tentative threshold (0.3): not even ten frames running start one.
        let path = linearPath(from: (100, 100), velocity: (3, 0), count: 10, score: 0.25).map { [$0] }
        #expect(run(&tracker, path).allSatisfy { $0.isEmpty })
        // Without tentative objects: confident (from 0.5) but under the new-track threshold (0.7), matched if a
        // track exists, but starts none; nor does a weak detection at or above the new-track threshold.
        var options = TrackingOptions()
        options.tentativeTrackThreshold = nil
        options.detectionThreshold = 0.5
        var confident = ObjectTracker(options: options)
        let middling = linearPath(from: (100, 100), velocity: (3, 0), count: 10, score: 0.55).map { [$0] }
        #expect(run(&confident, middling).allSatisfy { $0.isEmpty })
        options.detectionThreshold = 0.8
        var weak = ObjectTracker(options: options)
        let strongButWeak = linearPath(from: (100, 100), velocity: (3, 0), count: 10, score: 0.75).map { [$0] }
        #expect(run(&weak, strongButWeak).allSatisfy { $0.isEmpty })
    }

    @Test("An object that leaves the image and comes back gets a new ID")
    func exitAndReturn() {
        var tracker = ObjectTracker()
        var frames: [[TrackerDetection]] = []
        // Moves right at 10 px/frame and leaves on the right; the detector sees the part inside the image.
        for t in 0..<30 {
            let whole = box(450 + 10 * Double(t), 200)
            let visible = whole.clamped(width: 640, height: 480)
            frames.append(visible.width >= 12 ? [detection(visible)] : [])
        }
        // Out for 5 frames, then comes back through the same edge, moving left.
        frames += Array(repeating: [], count: 5)
        for t in 0..<20 {
            let visible = box(640 - 10 * Double(t + 1), 200).clamped(width: 640, height: 480)
            frames.append([detection(visible)])
        }
        var ids: [Int] = []
        for (t, frame) in frames.enumerated() {
            ids += tracker.update(frame, imageWidth: 640, imageHeight: 480).map(\.id)
            if t == 25 { #expect(tracker.liveTracks.isEmpty, "the track is dropped as soon as it has left") }
        }
        #expect(Set(ids) == [0, 1])
        #expect(ids.firstIndex(of: 1)! > ids.lastIndex(of: 0)!)
    }

    @Test("A track whose predicted box leaves the image while unseen is dropped at once")
    func outsideDrop() {
        var tracker = ObjectTracker()
        // Moving left fast toward the left edge, then no more detections.
        for t in 0..<8 {
            _ = tracker.update([detection(box(150 - 18 * Double(t), 100))], imageWidth: 640, imageHeight: 480)
        }
        var frames = 0
        while !tracker.liveTracks.isEmpty && frames < 30 {
            _ = tracker.update([], imageWidth: 640, imageHeight: 480)
            frames += 1
        }
        // At 18 px/frame the 60-wide box is more than half out within about 4 frames (the filter may underestimate
        // the speed a little): far sooner than the 45-frame buffer.
        #expect(frames <= 5)
    }

    @Test("Boxes reaching past the image are matched as limited to it and reported as detected")
    func boxesPastTheBorder() {
        // A person leaving through the left border, detected with whole boxes (as ground truth gives them), then
        // one standing mostly outside: each keeps its ID. A box wholly outside is no object in view.
        var tracker = ObjectTracker()
        let leaving = (0..<12).map { t in [detection(box(40 - 8 * Double(t), 100, 60, 160))] }
        let leavingTracks = run(&tracker, leaving)
        #expect(leavingTracks.map { $0.map(\.id) } == Array(repeating: [0], count: 12))
        #expect(leavingTracks.last?.first?.box == box(-48, 100, 60, 160))
        let standing = (0..<8).map { _ in [detection(box(-85, 300, 100, 160))] }
        #expect(Set(run(&tracker, standing).joined().map(\.id)) == [1])
        // Wholly outside, or a sliver of 0.3 px inside: nothing a detector could see.
        let outside = [[detection(box(-200, 100, 60, 160)), detection(box(300, 500, 60, 160))]]
        #expect(run(&tracker, outside) == [[]])
        let slivers = (0..<3).map { _ in [detection(box(-59.7, 100, 60, 160)), detection(box(639.7, 100, 60, 160))] }
        #expect(run(&tracker, slivers) == [[], [], []])
        // The same boxes clipped by the detector give the same IDs.
        var whole = ObjectTracker(), clipped = ObjectTracker()
        let clippedFrames = (leaving + standing).map {
            $0.map { detection($0.box.clamped(width: 640, height: 480), score: $0.score) }
        }
        #expect(
            run(&clipped, clippedFrames).map { $0.map(\.id) } == run(&whole, leaving + standing).map { $0.map(\.id) })
    }

    @Test("The track buffer decides how long an unseen object keeps its ID", arguments: [(3, false), (10, true)])
    func trackBuffer(buffer: Int, keeps: Bool) {
        var options = TrackingOptions()
        options.lostTrackBuffer = buffer
        var tracker = ObjectTracker(options: options)
        var ids: [Int] = []
        for t in 0..<20 {
            let present = !(5..<11).contains(t)  // unseen for 6 frames, standing still
            ids += tracker.update(present ? [detection(box(300, 200))] : [], imageWidth: 640, imageHeight: 480).map(
                \.id)
        }
        #expect(Set(ids) == (keeps ? [0] : [0, 1]))
    }

    @Test("With minimumHits 3, one-frame false positives are never reported and use no ID")
    func minimumHits() {
        var options = TrackingOptions()
        options.minimumHits = 3
        var tracker = ObjectTracker(options: options)
        let spots = [box(250, 220), box(450, 380), box(350, 300), box(550, 220)]
        var reported: [[Int]] = []
        for t in 0..<40 {
            var frame = [detection(box(100 + 3 * Double(t), 100))]
            // A confident false positive somewhere else, at a different spot every frame.
            frame.append(detection(spots[t % spots.count], score: 0.8))
            if t >= 20 { frame.append(detection(box(500, 40 + Double(t)))) }  // a second real object from frame 20
            reported.append(tracker.update(frame, imageWidth: 640, imageHeight: 480).map(\.id))
        }
        #expect(reported[0].isEmpty && reported[1].isEmpty)
        #expect(reported[2] == [0])
        #expect(reported[21] == [0])
        #expect(reported[22] == [0, 1])
        #expect(reported[39] == [0, 1])
    }

    @Test("IDs increase and are never reused, over many births and deaths")
    func idsNeverReused() {
        var tracker = ObjectTracker()
        var rng = SeededGenerator(seed: 11)
        // Objects appear at random places, live a few frames (sometimes with a one-frame gap), and vanish.
        struct Life { var x: Double; var y: Double; var start: Int; var end: Int }
        let lives = (0..<60).map { _ -> Life in
            let start = Int.random(in: 0..<200, using: &rng)
            return Life(
                x: Double.random(in: 0...560, using: &rng), y: Double.random(in: 0...380, using: &rng),
                start: start, end: start + Int.random(in: 2...40, using: &rng))
        }
        var dead = Set<Int>()
        var maxID = -1
        var previousLive = Set<Int>()
        for t in 0..<260 {
            let frame = lives.filter { (($0.start)...($0.end)).contains(t) && (t - $0.start) % 7 != 3 }
                .map { detection(box($0.x + Double(t - $0.start), $0.y)) }
            let tracks = tracker.update(frame, imageWidth: 640, imageHeight: 480)
            for track in tracks {
                #expect(!dead.contains(track.id), "ID \(track.id) came back after its track ended")
                if track.id > maxID {
                    #expect(track.id == maxID + 1, "IDs are consecutive in order of first report")
                    maxID = track.id
                }
            }
            let live = Set(tracker.liveTracks.map(\.id))
            dead.formUnion(previousLive.subtracting(live))
            previousLive = live
        }
        #expect(maxID > 20)
    }

    @Test("reset() forgets the tracks and keeps counting IDs")
    func reset() {
        var tracker = ObjectTracker()
        _ = run(&tracker, linearPath(from: (10, 10), velocity: (2, 0), count: 5).map { [$0] })
        #expect(tracker.liveTracks.map(\.id) == [0])
        tracker.reset()
        #expect(tracker.liveTracks.isEmpty)
        #expect(tracker.frameCount == 0)
        let tracks = tracker.update([detection(box(12, 10))], imageWidth: 640, imageHeight: 480)
        #expect(tracks.map(\.id) == [1])
    }

    @Test("Class-aware matching: a track takes only detections of its class, or without class")
    func classes() {
        func ids(matchesClasses: Bool, classes: [Int?]) -> Set<Int> {
            var options = TrackingOptions()
            options.matchesClasses = matchesClasses
            var tracker = ObjectTracker(options: options)
            var ids = Set<Int>()
            for (t, classIndex) in classes.enumerated() {
                let tracks = tracker.update(
                    [detection(box(100 + 2 * Double(t), 100), classIndex: classIndex)],
                    imageWidth: 640, imageHeight: 480)
                ids.formUnion(tracks.map(\.id))
            }
            return ids
        }
        #expect(ids(matchesClasses: true, classes: [1, 1, 1, 2, 2]) == [0, 1])
        #expect(ids(matchesClasses: false, classes: [1, 1, 1, 2, 2]) == [0])
        #expect(ids(matchesClasses: true, classes: [1, nil, 1, nil, 1]) == [0])
    }

    @Test(
        "A box on an object of another class is its own object; of the same class, or nearly the same box, a duplicate")
    func duplicatesWithinAClass() {
        // A person standing in front of a car: the person's box lies wholly on the car's. Or the car's box again, a
        // little smaller, as a truck (a detector suppressing boxes class by class).
        func ids(_ second: BoundingBox, secondClass: Int?, matchesClasses: Bool = true) -> Set<Int> {
            var options = TrackingOptions()
            options.matchesClasses = matchesClasses
            var tracker = ObjectTracker(options: options)
            let frames = (0..<5).map { t in
                [
                    detection(box(100 + Double(t), 100, 300, 200), classIndex: 2),
                    detection(
                        box(second.x + Double(t), second.y, second.width, second.height), classIndex: secondClass),
                ]
            }
            return Set(run(&tracker, frames).joined().map(\.id))
        }
        let person = box(200, 150, 40, 110), truck = box(110, 105, 280, 190)
        #expect(ids(person, secondClass: 0) == [0, 1])
        #expect(ids(person, secondClass: 2) == [0])
        #expect(ids(person, secondClass: nil) == [0])
        #expect(ids(person, secondClass: 0, matchesClasses: false) == [0])
        #expect(ids(truck, secondClass: 7) == [0])
    }

    @Test("Invalid detections are ignored")
    func invalidDetections() {
        var tracker = ObjectTracker()
        let frame = [
            detection(BoundingBox(x: .nan, y: 0, width: 10, height: 10)),
            detection(box(10, 10, 0, 20)),
            detection(box(10, 10), score: .infinity),
            detection(BoundingBox(x: 0, y: 0, width: .infinity, height: 10)),
            detection(box(200, 200)),
        ]
        let tracks = tracker.update(frame, imageWidth: 640, imageHeight: 480)
        #expect(tracks.map(\.detectionIndex) == [4])
    }

    @Test("Filtered boxes on request")
    func filteredBoxes() {
        var options = TrackingOptions()
        options.reportsFilteredBoxes = true
        var tracker = ObjectTracker(options: options)
        var last: [Track] = []
        for d in linearPath(from: (100, 100), velocity: (5, 0), count: 10) {
            last = tracker.update([d], imageWidth: 640, imageHeight: 480)
        }
        #expect(last[0].box == last[0].filteredBox)
        #expect(last[0].box.iou(box(145, 100)) > 0.9)
    }

    @Test("Two objects crossing, the hidden one unseen for 6 frames, keep their IDs (motion model)")
    func crossing() {
        var tracker = ObjectTracker()
        var seen: [Int: Set<Int>] = [0: [], 1: []]  // object → IDs
        for t in 0..<40 {
            let a = box(100 + 10 * Double(t), 200), b = box(500 - 10 * Double(t), 210)
            // b passes behind a around t = 20: the detector misses it while they overlap.
            let hidden = a.iou(b) > 0.1
            let frame = hidden ? [detection(a)] : [detection(a), detection(b)]
            for track in tracker.update(frame, imageWidth: 640, imageHeight: 480) {
                seen[track.detectionIndex == 0 ? 0 : 1]!.insert(track.id)
            }
        }
        #expect(seen[0] == [0])
        #expect(seen[1] == [1])
    }

    @Test("A box two objects share, drifting from the one in front onto the one behind, leaves the front one's pace")
    func sharedBoxKeepsPace() {
        // F walks left at 4 px a frame in front of B, who stands behind (bottom edge 210 against 220). From frame 18,
        // when F is 30 px from B, B is not detected, and the detector's one box slides from F onto B over 16 frames,
        // as the box of a pair does while the one in front passes. Measured as any box, it dragged F's track onto B:
        // F's track took all but the last, and ended at x 191, 9 px from B and 27 from F. Measured with three times
        // the deviation (`sharedBoxDeviation`, the box overlapping B's lost track), F's track keeps most of its pace
        // (x 177), lets go of the box, and B's track takes it back.
        var tracker = ObjectTracker()
        func front(_ t: Int) -> BoundingBox { BoundingBox(x: 300 - 4 * Double(t), y: 100, width: 40, height: 120) }
        let behind = BoundingBox(x: 200, y: 90, width: 40, height: 120)
        func both(_ t: Int) -> [Track] {
            tracker.update(
                [TrackerDetection(box: front(t), score: 0.9), TrackerDetection(box: behind, score: 0.9)],
                imageWidth: 640, imageHeight: 480)
        }
        for t in 0..<18 { #expect(both(t).map(\.id) == [0, 1]) }
        var takers: [Int] = []
        for i in 0..<16 {
            let share = Double(i + 1) / 16, f = front(18 + i)
            let box = BoundingBox(
                x: share * behind.x + (1 - share) * f.x, y: share * behind.y + (1 - share) * f.y, width: 40,
                height: 120)
            takers += tracker.update([TrackerDetection(box: box, score: 0.8)], imageWidth: 640, imageHeight: 480)
                .map(\.id)
        }
        #expect(takers.count == 16 && takers.prefix(10).allSatisfy { $0 == 0 } && takers.suffix(3) == [1, 1, 1])
        _ = tracker.update([], imageWidth: 640, imageHeight: 480)
        let coasting = tracker.liveTracks.first { $0.id == 0 }?.box.x ?? .nan
        #expect(abs(coasting - front(34).x) < abs(coasting - behind.x), "F's track at x \(coasting)")
        for t in 35..<38 { #expect(both(t).map { $0.detectionIndex } == [0, 1]) }
    }

    @Test("A track's first box is not the size its later boxes are completed to: a large one keeps it too wide")
    func firstBoxIsNotTheSize() {
        // A's first box came out 100 px wide; its later boxes are 72 px wide while it walks left at 6 px a frame,
        // next to B (no box of A from the second on is free of other tracks: the sooner way to a smaller size is
        // closed). Taking the first box as A's size, every later box was completed to 100 px, and A's prediction stayed
        // 100 px wide.
        var tracker = ObjectTracker()
        let b = TrackerDetection(box: BoundingBox(x: 256, y: 110, width: 45, height: 140), score: 0.9)
        var tracks = tracker.update(
            [TrackerDetection(box: BoundingBox(x: 300, y: 100, width: 100, height: 180), score: 0.9), b],
            imageWidth: 640, imageHeight: 480)
        for t in 1...5 {
            let a = BoundingBox(x: 314 - 6 * Double(t), y: 100, width: 72, height: 180)
            tracks = tracker.update([TrackerDetection(box: a, score: 0.9), b], imageWidth: 640, imageHeight: 480)
        }
        #expect(tracks.map(\.id) == [0, 1])
        _ = tracker.update([b], imageWidth: 640, imageHeight: 480)
        let coasting = tracker.liveTracks.first { $0.id == 0 }?.box
        #expect(coasting.map { abs($0.width - 72) < 4 } == true, "A's predicted box \(String(describing: coasting))")
    }
}
