import LiteVisionGeometry
import LiteVisionTestSupport
import Testing

@testable import LiteVisionTracking

/// The detector's jitter, measured as the tracker runs (`DetectorJitter`): boxes that stray from their objects by more
/// than most detectors' move the tracks less.
@Suite("Detector jitter")
struct DetectorJitterTests {
    /// Three walkers far apart (150 px), crossing a 640×480 image at 3 px a frame, boxed each frame with their center jittered by
    /// `jitter` of their size and their sides by `jitter` too (seeded); `score` for every box.
    static func walkers(frames: Int, jitter: Double, seed: UInt64, score: Float = 0.9) -> [[TrackerDetection]] {
        var random = SeededGenerator(seed: seed)
        return (0..<frames).map { t in
            (0..<3).map { k in
                let width = 40.0, height = 100.0
                let cx = 120 + 3 * Double(t) + 20 * Double(k), cy = 90 + 150 * Double(k)
                let w = width * (1 + jitter * random.nextGaussian()), h = height * (1 + jitter * random.nextGaussian())
                let x = cx + jitter * width * random.nextGaussian() - w / 2
                let y = cy + jitter * height * random.nextGaussian() - h / 2
                return detection(box(x, y, w, h), score: score)
            }
        }
    }

    @Test("A detector about as steady as most keeps the usual deviation; one that jitters more gets a larger one")
    func scaleFollowsTheJitter() {
        var steady = ObjectTracker()
        _ = run(&steady, Self.walkers(frames: 60, jitter: 0.02, seed: 1))
        #expect(steady.jitter.deviationScale == 1)
        var jittery = ObjectTracker()
        _ = run(&jittery, Self.walkers(frames: 60, jitter: 0.12, seed: 1))
        #expect(jittery.jitter.deviationScale > 1.3, "scale \(jittery.jitter.deviationScale)")
        #expect(jittery.jitter.deviationScale <= DetectorJitter.largestScale)
        // A new video starts from the usual deviation again.
        jittery.reset()
        #expect(jittery.jitter.deviationScale == 1)
    }

    @Test("Weak boxes, a track's first boxes and boxes at the border are no samples")
    func onlySettledConfidentWholeBoxesCount() {
        // Weak boxes (0.5, under the detection threshold of 0.7) jittered as much as above.
        var weak = ObjectTracker()
        _ = run(&weak, Self.walkers(frames: 60, jitter: 0.12, seed: 2, score: 0.5))
        #expect(weak.jitter.deviationScale == 1)
        // Each walker's first five boxes only, however jittered.
        var young = ObjectTracker()
        _ = run(&young, Self.walkers(frames: DetectorJitter.settledHits, jitter: 0.3, seed: 3))
        #expect(young.jitter.deviationScale == 1)
        // A person standing at the left border, cut by it, boxed ever narrower and wider.
        var border = ObjectTracker()
        for t in 0..<60 {
            let width = 30 + 20 * Double(t % 2)
            _ = border.update([detection(box(0, 200, width, 100))], imageWidth: 640, imageHeight: 480)
        }
        #expect(border.jitter.deviationScale == 1)
    }

    @Test("One box of another object taken by mistake moves the scale little; a detector steady again is forgotten")
    func oneWildBoxCountsLittle() {
        var jitter = DetectorJitter()
        let predicted = box(100, 100, 40, 100)
        for _ in 0..<50 { jitter.observe(box(101, 102, 40, 101), predicted: predicted) }
        jitter.observe(box(400, 300, 200, 300), predicted: predicted)
        jitter.settle()
        #expect(jitter.deviationScale == 1)
        for _ in 0..<200 { jitter.observe(box(108, 110, 46, 112), predicted: predicted) }
        jitter.settle()
        #expect(jitter.deviationScale > 1.5, "scale \(jitter.deviationScale)")
        // The mean remembers about `memory` samples: after three times as many steady ones, the jitter is forgotten.
        for _ in 0..<Int(3 * DetectorJitter.memory) { jitter.observe(box(101, 102, 40, 101), predicted: predicted) }
        jitter.settle()
        #expect(jitter.deviationScale == 1)
    }

    @Test("A track continuing a lost one's ID is settled by its own boxes, not the lost track's")
    func continuedTrackCountsItsOwnBoxes() {
        // A walker followed for 20 frames, unseen for 12, back stopped off its prediction: a new track that takes the
        // lost track's ID (and its 20 hits; see ContinuationTests), whose prediction knows only its own boxes.
        var tracker = ObjectTracker()
        for t in 0..<20 {
            _ = tracker.update([detection(box(100 + 6 * Double(t), 100, 40, 100))], imageWidth: 640, imageHeight: 480)
        }
        for _ in 0..<12 { _ = tracker.update([], imageWidth: 640, imageHeight: 480) }
        var counts = [tracker.jitter.count]
        for _ in 0..<7 {
            let tracks = tracker.update([detection(box(226, 100, 40, 100))], imageWidth: 640, imageHeight: 480)
            #expect(tracks.map(\.id) == [0] && tracks.first?.hits ?? 0 > 20)
            counts.append(tracker.jitter.count)
        }
        // Its first box starts it; its 2nd to 5th are compared with a prediction from fewer than 5 of its own boxes.
        #expect(counts[0] > 0)
        #expect(Set(counts[0...5]).count == 1, "samples \(counts)")
        #expect(counts[6] > counts[5] && counts[7] > counts[6], "samples \(counts)")
    }

    @Test("A box that may cover a lost object too is no sample")
    func sharedBoxIsNoSample() {
        // A person standing at x 300 followed for 10 frames, then hidden (undetected) as a walker at the same depth
        // passes over their spot: the walker's boxes there overlap the lost track's prediction. (The walker covers
        // the spot from frame 19: a person unseen in the open for more than 15 frames is dropped before.)
        var tracker = ObjectTracker()
        var sampled: [Bool] = [], shared: [Bool] = []
        for t in 0..<40 {
            let walker = box(160 + 6 * Double(t), 100, 40, 100)
            let standing = box(300, 100, 40, 100)
            var detections = [detection(walker)]
            if t < 10 { detections.append(detection(standing)) }
            let before = tracker.jitter.count
            let tracks = tracker.update(detections, imageWidth: 640, imageHeight: 480)
            #expect(tracks.contains { $0.detectionIndex == 0 && $0.id == 0 })
            sampled.append(tracker.jitter.count > before)
            shared.append(t >= 10 && walker.iou(standing) >= ObjectTracker.sharedBoxOverlap)
        }
        #expect(shared.contains(true))
        #expect(zip(sampled, shared).allSatisfy { !($0 && $1) }, "sampled \(sampled)")
        // Before and after, the walker's settled boxes are samples.
        #expect(sampled[8] && sampled[39])
    }

    @Test("Under a jittery detector, a walker's track coasting while hidden stays nearer the walker")
    func coastingTrackDriftsLess() {
        // 40 frames seen, then 12 unseen (hidden), over six seeds: the coasting predictions' distance from the walkers'
        // true centers, with the measured jitter and with the usual deviation kept (the measurement forgotten before
        // every frame).
        var measured = 0.0, usual = 0.0
        for seed in UInt64(10)..<16 {
            let seen = Self.walkers(frames: 40, jitter: 0.12, seed: seed)
            for keepsUsual in [false, true] {
                var tracker = ObjectTracker()
                var last: [Track] = []
                for frame in seen {
                    if keepsUsual { tracker.jitter = DetectorJitter() }
                    last = tracker.update(frame, imageWidth: 640, imageHeight: 480)
                }
                for _ in 0..<12 { _ = tracker.update([], imageWidth: 640, imageHeight: 480) }
                // Each walker's track: the one its last box went to.
                for k in 0..<3 {
                    let id = last.first { $0.detectionIndex == k }?.id
                    guard let track = tracker.liveTracks.first(where: { $0.id == id }) else {
                        Issue.record("seed \(seed): walker \(k) has no track")
                        continue
                    }
                    let cx = 120 + 3 * 51.0 + 20 * Double(k), cy = 90 + 150 * Double(k)
                    let error =
                        ((track.box.midX - cx) * (track.box.midX - cx)
                        + (track.box.midY - cy) * (track.box.midY - cy)).squareRoot()
                    if keepsUsual { usual += error } else { measured += error }
                }
            }
        }
        #expect(measured < 0.85 * usual, "drift \(measured) px against \(usual) px")
    }
}
