import LiteVisionTracking
import Testing

/// `ObjectTracker.interpolatingGaps(in:upTo:)`: a sequence's tracks with each object's short gaps filled, offline.
@Suite("Gaps filled by interpolation")
struct InterpolationTests {
    /// A reported track with the given ID and box, as `update` returns one matched in its frame.
    static func track(
        _ id: Int, x: Double, width: Double = 50, score: Float = 0.9, age: Int = 1, hits: Int = 1
    )
        -> Track
    {
        Track(
            id: id, box: BoundingBox(x: x, y: 20, width: width, height: 100), score: score, detectionIndex: 0,
            age: age, hits: hits, framesSinceUpdate: 0)
    }

    @Test("A gap up to the limit gets boxes on the line between its ends; longer gaps and the ends stay empty")
    func fillsShortGaps() {
        // ID 0: frames 1 and 5 (a gap of 3 frames); ID 1: frames 0 and 6 (a gap of 5, over the limit of 3).
        var frames = [[Track]](repeating: [], count: 8)
        frames[0] = [Self.track(1, x: 300)]
        frames[1] = [Self.track(0, x: 100, width: 40, score: 0.8, age: 2, hits: 2)]
        frames[5] = [Self.track(0, x: 140, width: 80, score: 0.6, age: 6, hits: 3)]
        frames[6] = [Self.track(1, x: 360)]
        #expect(ObjectTracker.interpolatedGapCount(in: frames, upTo: 3) == 3)
        let filled = ObjectTracker.interpolatingGaps(in: frames, upTo: 3)
        #expect(filled.count == 8)
        #expect(filled[0] == frames[0] && filled[1] == frames[1] && filled[5] == frames[5] && filled[6] == frames[6])
        #expect(filled[7].isEmpty, "nothing after an ID's last report")
        for (frame, x, width) in [(2, 110.0, 50.0), (3, 120.0, 60.0), (4, 130.0, 70.0)] {
            let added = filled[frame]
            #expect(added.count == 1, "frame \(frame): ID 1's gap of 5 frames is over the limit")
            guard let track = added.first else { continue }
            #expect(track.id == 0)
            #expect(track.box == BoundingBox(x: x, y: 20, width: width, height: 100), "frame \(frame)")
            #expect(track.filteredBox == track.box)
            // Coasting since frame 1: its last detection's score, no detection in this frame.
            #expect(track.score == 0.8 && track.detectionIndex == nil)
            #expect(track.framesSinceUpdate == frame - 1 && track.age == 2 + frame - 1 && track.hits == 2)
        }
        // With a limit of 5, ID 1's gap is filled too, after the reported tracks of each frame, by ID.
        #expect(ObjectTracker.interpolatedGapCount(in: frames, upTo: 5) == 8)
        let wider = ObjectTracker.interpolatingGaps(in: frames, upTo: 5)
        #expect(wider[3].map(\.id) == [0, 1])
        #expect(wider[3].last?.box.x == 330)
        #expect(wider[1].map(\.id) == [0, 1], "the reported track first, then the filled one")
    }

    @Test("No gap, a limit under 1, and IDs reported once are left as they are")
    func leavesTheRest() {
        let frames = [
            [Self.track(0, x: 10)], [Self.track(0, x: 12), Self.track(1, x: 200)], [], [Self.track(2, x: 50)],
        ]
        for limit in [-1, 0, 1, 10] {
            #expect(ObjectTracker.interpolatingGaps(in: frames, upTo: limit) == frames, "limit \(limit)")
            #expect(ObjectTracker.interpolatedGapCount(in: frames, upTo: limit) == 0)
        }
        #expect(ObjectTracker.interpolatingGaps(in: [], upTo: 5).isEmpty)
        // Gaps are filled up to `maximumInterpolatedGap` frames, whatever the limit asked for.
        var long = [[Track]](repeating: [], count: ObjectTracker.maximumInterpolatedGap + 4)
        long[0] = [Self.track(0, x: 0)]
        long[ObjectTracker.maximumInterpolatedGap + 1] = [Self.track(0, x: 1001)]
        long[ObjectTracker.maximumInterpolatedGap + 3] = [Self.track(0, x: 1003), Self.track(1, x: 0)]
        #expect(ObjectTracker.interpolatedGapCount(in: long, upTo: .max) == ObjectTracker.maximumInterpolatedGap + 1)
        let capped = ObjectTracker.interpolatingGaps(in: long, upTo: .max)
        #expect(capped[500].first?.box.x == 500 && capped[ObjectTracker.maximumInterpolatedGap + 2].count == 1)
        long[ObjectTracker.maximumInterpolatedGap + 1] = []
        #expect(
            ObjectTracker.interpolatedGapCount(in: long, upTo: .max) == 0, "a gap of 1002 frames is over the cap")
    }

    @Test("A person missed for a few frames by the detector is given the frames back, on the tracker's own output")
    func tracksFromTheTracker() {
        // One walker, 6 px a frame; the detector misses frames 4-7. The tracker keeps the ID through the gap (it
        // reports the object only where detected); filling puts boxes where the walker was.
        var tracker = ObjectTracker()
        var frames: [[Track]] = []
        for t in 0..<12 {
            let box = BoundingBox(x: 100 + 6 * Double(t), y: 50, width: 40, height: 100)
            let detections = (4...7).contains(t) ? [] : [TrackerDetection(box: box, score: 0.9)]
            frames.append(tracker.update(detections, imageWidth: 640, imageHeight: 480))
        }
        #expect(frames.map(\.count) == [1, 1, 1, 1, 0, 0, 0, 0, 1, 1, 1, 1])
        let filled = ObjectTracker.interpolatingGaps(in: frames, upTo: 4)
        #expect(filled.allSatisfy { $0.count == 1 && $0.first?.id == frames[0].first?.id })
        for t in 4...7 { #expect(filled[t].first?.box.x == 100 + 6 * Double(t), "frame \(t)") }
        #expect(ObjectTracker.interpolatingGaps(in: frames, upTo: 3) == frames, "a gap of 4 frames, over 3")
    }
}
