import LiteVisionGeometry
import Testing

@testable import LiteVisionTracking

/// A young track (`TrackRecord.isYoung`: measured in one or two frames of its own) weighs
/// `ObjectTracker.youngTrackGain` in the assignment, unless the frame rate is known to be under 20 fps.
@Suite("Young tracks")
struct YoungTrackTests {
    /// The IDs of an established object A and a young object B, and the ID that takes one box lying between their
    /// predictions in the eleventh frame, fitting B's by a little more IoU than A's. A (60x150) walks right 2 px a
    /// frame from x 100, detected at 0.9 in every frame; B is detected at 0.9 in the ninth and tenth frames only, at x
    /// 30 and 54: 24 px in a frame, a speed its jitter could give, which carries its prediction toward A.
    static func contest(frameRate: Double?) throws -> (established: Int, young: Int, winner: Int?) {
        var options = TrackingOptions()
        options.frameRate = frameRate
        var tracker = ObjectTracker(options: options)
        func walker(_ x: Double) -> TrackerDetection {
            detection(BoundingBox(x: x, y: 100, width: 60, height: 150))
        }
        for frame in 0..<8 { _ = tracker.update([walker(100 + 2 * Double(frame))], imageWidth: 640, imageHeight: 480) }
        _ = tracker.update([walker(116), walker(30)], imageWidth: 640, imageHeight: 480)
        let both = tracker.update([walker(118), walker(54)], imageWidth: 640, imageHeight: 480)
        try #require(both.count == 2)
        let established = try #require(both.first { $0.hits > 2 }), young = try #require(both.first { $0.hits == 2 })
        // Where the two predict their objects in the next frame (a copy of the tracker, given no detection).
        var probe = tracker
        _ = probe.update([], imageWidth: 640, imageHeight: 480)
        let predicted = probe.liveTracks
        let a = try #require(predicted.first { $0.id == established.id }).box
        let b = try #require(predicted.first { $0.id == young.id }).box
        // The box fitting B's prediction by 0.005 to 0.03 more IoU than A's, both well above the gate (0.3).
        let x = try #require(
            stride(from: b.x, through: a.x, by: 0.25).first { x in
                let box = BoundingBox(x: x, y: 100, width: 60, height: 150)
                let lead = box.iou(b) - box.iou(a)
                return lead > 0.005 && lead < 0.03 && box.iou(a) > 0.4
            })
        let winner = tracker.update([walker(x)], imageWidth: 640, imageHeight: 480).first?.id
        return (established.id, young.id, winner)
    }

    @Test("A box a young track fits a little better than an established one goes to the established one")
    func establishedTrackKeepsItsBox() throws {
        for rate in [nil, 25, 30] as [Double?] {
            let contest = try Self.contest(frameRate: rate)
            #expect(contest.winner == contest.established, "frame rate \(String(describing: rate))")
        }
    }

    @Test("Under 20 fps the young track keeps its full weight: its second box is most often its object's step")
    func fullWeightAtLowFrameRate() throws {
        let contest = try Self.contest(frameRate: 15)
        #expect(contest.winner == contest.young)
    }
}
