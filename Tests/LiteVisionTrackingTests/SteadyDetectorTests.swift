import LiteVisionGeometry
import Testing

@testable import LiteVisionTracking

/// A detector steadier than most (`DetectorJitter.steadiness` under 1): its boxes fit their own tracks closely, so a
/// smaller difference in fit tells two objects apart (`ObjectTracker.hiddenClearFit`, scaled by the steadiness). A
/// confident box on an object seen weakly in one frame is still a duplicate, as with any detector.
@Suite("Steady detector")
struct SteadyDetectorTests {
    @Test("A precise detector's steadiness falls under 1; one that jitters as most do keeps 1")
    func steadinessFollowsTheJitter() {
        var precise = ObjectTracker()
        _ = run(&precise, DetectorJitterTests.walkers(frames: 80, jitter: 0.005, seed: 4))
        #expect(precise.jitter.steadiness < 0.8, "steadiness \(precise.jitter.steadiness)")
        // The starting samples keep it above about 0.44, however steady the boxes.
        var exact = ObjectTracker()
        _ = run(&exact, DetectorJitterTests.walkers(frames: 150, jitter: 0, seed: 4))
        #expect(exact.jitter.steadiness > 0.4 && exact.jitter.steadiness < 0.7, "steadiness \(exact.jitter.steadiness)")
        var usual = ObjectTracker()
        _ = run(&usual, DetectorJitterTests.walkers(frames: 80, jitter: 0.06, seed: 4))
        #expect(usual.jitter.steadiness == 1)
        // A new video starts from a detector as noisy as most again.
        precise.reset()
        #expect(precise.jitter.steadiness == 1)
    }

    /// Three walkers followed for 150 frames (their boxes jittered by `jitter`, to measure the detector), then two cars
    /// of one lane at one depth (100×100, bottoms level): A from x 300 at 2 px a frame, B from x 180 at 6 px a frame,
    /// overtaking it. In the frame where B is 8 px behind A (their boxes' IoU 0.85), A is detected confidently and B
    /// weakly, after a frame where A was detected weakly (so that B counts as in front of it): with the clear fit of
    /// 0.2, A's track kept only half its weight for its own box (0.85 + 0.2 over its own fit) and the two swapped.
    /// Returns the IDs reported for A's box and for B's box, frame by frame.
    static func carsPassing(jitter: Double) -> (a: [Int?], b: [Int?]) {
        var tracker = ObjectTracker()
        _ = run(&tracker, DetectorJitterTests.walkers(frames: 150, jitter: jitter, seed: 6))
        var a: [Int?] = [], b: [Int?] = []
        for t in 0..<29 {
            let ax = 300 + 2 * Double(t), bx = 180 + 6 * Double(t)
            let aScore: Float = t == 28 ? 0.98 : t == 27 ? 0.44 : 0.9
            let bScore: Float = t == 28 ? 0.39 : 0.93
            let detections = [
                detection(box(ax, 300, 100, 100), score: aScore), detection(box(bx, 300, 100, 100), score: bScore),
            ]
            let tracks = tracker.update(detections, imageWidth: 640, imageHeight: 480)
            a.append(tracks.first { $0.detectionIndex == 0 }?.id)
            b.append(tracks.first { $0.detectionIndex == 1 }?.id)
        }
        return (a, b)
    }

    @Test("With a steady detector, a box that fits its own track clearly better is not lost to a car passing in front")
    func smallerDifferencesTellObjectsApart() {
        let (a, b) = Self.carsPassing(jitter: 0.002)
        let firstA = a.compactMap { $0 }.first, firstB = b.compactMap { $0 }.first
        #expect(firstA != nil && firstB != nil && firstA != firstB)
        // Each car keeps its ID through the frame where only the clear fit tells them apart.
        #expect(a.last == firstA && b.last == firstB, "A \(a), B \(b)")
    }

    /// The IDs reported in each frame, after three walkers followed for 150 frames with a steady detector (0.2 %
    /// jitter), for a person (40×100) walking right at 2 px a frame, detected at 0.9 but at 0.5 in frame 6, with from
    /// frame 3 a second confident box of the detector's, `second` (relative to the person's box), in every frame.
    static func secondBox(_ second: (x: Double, y: Double, width: Double, height: Double)) -> [Set<Int>] {
        var tracker = ObjectTracker()
        _ = run(&tracker, DetectorJitterTests.walkers(frames: 150, jitter: 0.002, seed: 6))
        return (0..<20).map { t in
            let x = 100 + 2 * Double(t)
            var detections = [detection(box(x, 300, 40, 100), score: t == 6 ? 0.5 : 0.9)]
            if t >= 3 {
                detections.append(
                    detection(box(x + second.x, 300 + second.y, second.width, second.height), score: 0.75))
            }
            return Set(tracker.update(detections, imageWidth: 640, imageHeight: 480).map(\.id))
        }
    }

    @Test("With a steady detector, a second box of a person seen weakly once is still a duplicate")
    func secondBoxesStayDuplicates() {
        // The detector's second box on the person: of the upper body, inside the person's or sticking out of it by 4 px
        // (IoU 0.42: below any NMS threshold, so a detector keeps both); a loose box around the person (IoU 0.51); a
        // box of the person and what they carry, cutting 3 px off the far side (IoU 0.59). Each starts nothing when the
        // person scores weakly in one frame. A rule that took one weak frame as enough with a steady detector
        // (`docs/tracking-quality.md`, forty-second round, dropped) reported each as a second object to the end.
        let boxes: [(x: Double, y: Double, width: Double, height: Double)] = [
            (2, 2, 36, 55), (-4, 2, 36, 55), (-10, -10, 60, 130), (3, 0, 60, 100),
        ]
        for second in boxes {
            let reported = Self.secondBox(second)
            #expect(
                reported.allSatisfy { $0.count <= 1 } && Set(reported.joined()).count == 1, "\(second): \(reported)")
        }
    }
}
