import LiteVisionGeometry
import LiteVisionTracking
import Testing

/// `TrackingOptions.openLostTrackBuffer`: how long an object lost in plain view keeps its ID.
@Suite("Objects lost in the open")
struct OpenLostTrackTests {
    /// The IDs reported for an object moving at 4 px a frame for 15 frames, gone for `gap` frames in the middle of the
    /// image, and for a new object that then appears exactly on its prediction and walks away in another direction.
    func vanishing(gap: Int, options: TrackingOptions = .init()) -> (first: Set<Int>, second: Set<Int>, live: [Int]) {
        var tracker = ObjectTracker(options: options)
        var first: Set<Int> = [], second: Set<Int> = [], live: [Int] = []
        for t in 0..<(15 + gap + 10) {
            let frame: [TrackerDetection]
            if t < 15 {
                frame = [detection(box(100 + 4 * Double(t), 200))]
            } else if t < 15 + gap {
                frame = []
            } else {
                let k = Double(t - 15 - gap)
                frame = [detection(box(100 + 4 * Double(15 + gap) - 3 * k, 200 + 2 * k))]
            }
            let ids = tracker.update(frame, imageWidth: 640, imageHeight: 480).map(\.id)
            if t < 15 { first.formUnion(ids) } else { second.formUnion(ids) }
            if t >= 15 && t < 15 + gap { live.append(tracker.liveTracks.count) }
        }
        return (first, second, live)
    }

    @Test("An object unseen in plain view for more than 15 frames is dropped: a new object on its path gets a new ID")
    func vanishedInTheOpen() {
        let gone = vanishing(gap: 20)
        #expect(gone.first == [0] && gone.second == [1])
        // Followed (coasting) for 15 frames in the open, dropped at the 16th.
        #expect(gone.live == Array(repeating: 1, count: 15) + Array(repeating: 0, count: 5))

        // Set to the lost-track buffer, the rule is off: the new object, on the prediction, took the lost ID.
        var options = TrackingOptions()
        options.openLostTrackBuffer = options.lostTrackBuffer
        let kept = vanishing(gap: 20, options: options)
        #expect(kept.first == [0] && kept.second == [0])
        #expect(kept.live == Array(repeating: 1, count: 20))

        // A miss of up to 15 frames in the open keeps the ID (the new object is then taken for the old one).
        #expect(vanishing(gap: 15).second == [0])
    }

    @Test("An object hidden behind a followed one keeps its ID for the whole lost-track buffer, in plain view not")
    func hiddenKeepsItsID() {
        func ids(withFront: Bool, frontSeenEvery: Int = 1) -> Set<Int> {
            var tracker = ObjectTracker()
            let front = box(300, 200), behind = box(320, 195)  // 62 % of the one behind under the front box
            var ids: Set<Int> = []
            for t in 0..<50 {
                let frontSeen = withFront && t % frontSeenEvery == 0
                var frame = frontSeen ? [detection(front)] : []
                if !(10..<35).contains(t) { frame.append(detection(behind)) }  // unseen for 25 frames
                for track in tracker.update(frame, imageWidth: 640, imageHeight: 480)
                where frame[track.detectionIndex!].box == behind {
                    ids.insert(track.id)
                }
            }
            return ids
        }
        #expect(ids(withFront: true) == [1])
        // The one in front, detected in every third frame only, still hides it (its prediction does while missed):
        // counting its detected boxes only, 17 of the 25 frames were in the open.
        #expect(ids(withFront: true, frontSeenEvery: 3) == [1])
        // Hidden by nothing the tracker follows (a pillar, say), it is taken for a new object when it comes back.
        #expect(ids(withFront: false) == [0, 1])
    }

    @Test("A tentative object reported in a lost track's path takes its ID only within the open buffer, as others do")
    func tentativeObjectAtTheLimit() {
        // Seen moving for 15 frames, then gone in the open; a middling box (a tentative object, reported at its third
        // box) stands in its path from frame `from`. Reported at frame 29, the lost track has been 15 frames in the
        // open (frames 15-29): its ID. At frame 30, 16 frames: dropped, a new ID, as for a confident box there.
        func ids(from: Int, score: Float) -> Set<Int> {
            var tracker = ObjectTracker()
            var ids: Set<Int> = []
            for t in 0..<(from + 6) {
                let frame =
                    t < 15
                    ? [detection(box(100 + 4 * Double(t), 200, 40, 80))]
                    : t >= from ? [detection(box(170, 200, 40, 80), score: t < from + 3 ? score : 0.9)] : []
                if t >= 15 {
                    ids.formUnion(tracker.update(frame, imageWidth: 640, imageHeight: 480).map(\.id))
                } else {
                    _ = tracker.update(frame, imageWidth: 640, imageHeight: 480)
                }
            }
            return ids
        }
        #expect(ids(from: 27, score: 0.5) == [0])
        #expect(ids(from: 28, score: 0.5) == [1])
        #expect(ids(from: 30, score: 0.9) == [1])
    }

    @Test("Negative lengths act as 0: an object is dropped at its first frame undetected in the open")
    func negativeLength() {
        var options = TrackingOptions()
        options.openLostTrackBuffer = -4
        var tracker = ObjectTracker(options: options)
        #expect(tracker.options.openLostTrackBuffer == 0)
        var ids: Set<Int> = []
        for t in 0..<12 {
            let frame = t == 5 ? [] : [detection(box(300, 200))]
            ids.formUnion(tracker.update(frame, imageWidth: 640, imageHeight: 480).map(\.id))
        }
        #expect(ids == [0, 1])
    }

    @Test("An object at the image border is not in the open: it keeps its ID through 25 frames unseen")
    func borderIsNotOpen() {
        var tracker = ObjectTracker()
        var ids: Set<Int> = []
        for t in 0..<50 {
            let frame = (10..<35).contains(t) ? [] : [detection(box(0, 200))]
            ids.formUnion(tracker.update(frame, imageWidth: 640, imageHeight: 480).map(\.id))
        }
        #expect(ids == [0])
    }

    @Test("Misses in the open count per loss: 40 single misses over a track's life keep its ID")
    func missesDoNotAddUp() {
        var tracker = ObjectTracker()
        var ids: Set<Int> = []
        for t in 0..<120 {
            let frame = t % 3 == 2 ? [] : [detection(box(50 + 3 * Double(t), 200))]
            ids.formUnion(tracker.update(frame, imageWidth: 640, imageHeight: 480).map(\.id))
        }
        #expect(ids == [0])
    }
}
