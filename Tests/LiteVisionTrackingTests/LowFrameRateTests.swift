import LiteVisionGeometry
import LiteVisionTrackingTestSupport
import Testing

@testable import LiteVisionTracking

/// `TrackingOptions.frameRate` under `TrackingOptions.lowFrameRateThreshold`: a middling box is paired with the
/// confident gate, every track gets C-BIoU's buffer, the motion model follows stops and turns faster (see
/// `BoxKalmanFilter.predict(lowFrameRate:)`), and a weak box that could start nothing moves its track less (see
/// `TrackRecord.doubtfulBoxDeviation`).
@Suite("Low frame rates")
struct LowFrameRateTests {
    /// The IDs reported in each frame for one object 40x100 at y 100, detected once a frame at the given x and score.
    static func reported(frameRate: Double?, _ frames: [(x: Double, score: Float)]) -> [[Int]] {
        var options = TrackingOptions()
        options.frameRate = frameRate
        var tracker = ObjectTracker(options: options)
        return frames.map { x, score in
            let frame = [detection(BoundingBox(x: x, y: 100, width: 40, height: 100), score: score)]
            return tracker.update(frame, imageWidth: 640, imageHeight: 480).map(\.id)
        }
    }

    /// The IDs reported in each of 4 frames: an object 40x100 standing at x 100, detected at 0.9 three times, then at
    /// 0.5 (a middling score: partly hidden) 18 px to the right, an IoU of 22/58 = 0.38 with its prediction: under the
    /// weak gate (0.45), above the confident one (0.3).
    static func reported(frameRate: Double?) -> [[Int]] {
        reported(frameRate: frameRate, [(100, 0.9), (100, 0.9), (100, 0.9), (118, 0.5)])
    }

    @Test("Under 20 fps a middling box off the prediction keeps its object; from 20 fps, or unknown, it does not")
    func middlingGate() {
        #expect(Self.reported(frameRate: 8) == [[0], [0], [0], [0]])
        #expect(Self.reported(frameRate: 19.9) == [[0], [0], [0], [0]])
        // Unknown, 20 fps and more, and rates that are no rates: the weak gate. The box starts no tentative object
        // either, lying on the lost object's prediction.
        for rate in [nil, 20, 30, 0, -5, .nan, .infinity] as [Double?] {
            #expect(Self.reported(frameRate: rate) == [[0], [0], [0], []], "frame rate \(String(describing: rate))")
        }
    }

    /// The IDs given to a walker 40x100 detected confidently in every frame along `WalkerPath.stopsAndTurnsBack`.
    static func walkerIDs(frameRate: Double?) -> Set<Int> {
        Set(reported(frameRate: frameRate, WalkerPath.stopsAndTurnsBack.map { ($0, 0.9) }).joined())
    }

    @Test("Under 20 fps a walker who stops and walks back keeps their ID; with the usual motion model they do not")
    func stopAndTurnBack() {
        #expect(Self.walkerIDs(frameRate: 8) == [0])
        #expect(Self.walkerIDs(frameRate: nil).count > 1, "IDs \(Self.walkerIDs(frameRate: nil))")
    }

    /// The filtered centre x of an object 40x100 walking right 6 px a frame, detected at 0.9 in six frames, then once
    /// at `score`, 10 px ahead of its path.
    static func centre(frameRate: Double?, score: Float, tentativeObjects: Bool = true) throws -> Double {
        var options = TrackingOptions()
        options.frameRate = frameRate
        if !tentativeObjects { options.tentativeTrackThreshold = nil }
        var tracker = ObjectTracker(options: options)
        for frame in 0..<6 {
            let box = BoundingBox(x: 100 + 6 * Double(frame), y: 100, width: 40, height: 100)
            _ = tracker.update([detection(box)], imageWidth: 640, imageHeight: 480)
        }
        let last = BoundingBox(x: 146, y: 100, width: 40, height: 100)
        let tracks = tracker.update([detection(last, score: score)], imageWidth: 640, imageHeight: 480)
        try #require(tracks.map(\.id) == [0] && tracker.records.count == 1)
        return tracker.records[0].filter.centerX.position
    }

    @Test("Under 20 fps a weak box that could start nothing moves its track less than a middling one")
    func doubtfulBoxes() throws {
        // Measured with 1.5 times the deviation (`TrackRecord.doubtfulBoxDeviation`): a box under the tentative
        // threshold (0.3) is more often a false box.
        let doubtful = try Self.centre(frameRate: 15, score: 0.2), middling = try Self.centre(frameRate: 15, score: 0.4)
        #expect(doubtful < middling - 0.5, "\(doubtful) \(middling)")
        // From 20 fps, or unknown, and with tentative objects off (an object detector's tracker): measured alike.
        for rate in [nil, 25] as [Double?] {
            #expect(try Self.centre(frameRate: rate, score: 0.2) == Self.centre(frameRate: rate, score: 0.4))
        }
        #expect(
            try Self.centre(frameRate: 15, score: 0.2, tentativeObjects: false)
                == Self.centre(frameRate: 15, score: 0.4, tentativeObjects: false))
    }

    @Test("Under 20 fps a new object's second box, off its first, is compared with both boxes grown (C-BIoU)")
    func bufferedFirstStep() {
        // A walker 40x100 seen once, then 24 px to the right: an IoU of 16/64 = 0.25 with the prediction (the first
        // box: a new track has no speed yet), under the 0.3 gate; grown by a quarter on each side, 36/84 = 0.43.
        func ids(frameRate: Double?) -> [[Int]] { Self.reported(frameRate: frameRate, [(100, 0.9), (124, 0.9)]) }
        #expect(ids(frameRate: 8) == [[0], [0]])
        #expect(ids(frameRate: nil) == [[0], [1]])
        #expect(ids(frameRate: 25) == [[0], [1]])
    }

    @Test("Under 20 fps the motion model lets a walker's velocity follow a stop within a few frames")
    func turningShare() {
        // A walker 40 px wide moving 12 px a frame (a 30-fps walk played at 10 fps), who stops and is seen standing
        // for 3 frames, then predicted. At 25-30 fps the velocity follows a trend over more frames: it keeps half
        // of the speed, and the prediction runs ahead of the walker.
        func filter(lowFrameRate: Bool) -> BoxKalmanFilter {
            var filter = BoxKalmanFilter(box: BoundingBox(x: 100, y: 100, width: 40, height: 100))
            for t in 1...10 {
                filter.predict(lowFrameRate: lowFrameRate)
                filter.update(with: BoundingBox(x: 100 + 12 * Double(t), y: 100, width: 40, height: 100))
            }
            for _ in 1...3 {
                filter.predict(lowFrameRate: lowFrameRate)
                filter.update(with: BoundingBox(x: 220, y: 100, width: 40, height: 100))
            }
            filter.predict(lowFrameRate: lowFrameRate)
            return filter
        }
        let low = filter(lowFrameRate: true), usual = filter(lowFrameRate: false)
        // After the 3 frames standing: 2.3 px a frame left of 12, the next prediction 3 px ahead (IoU 0.86); with the
        // noise of 20 fps and more 6.3 px a frame, 8 px ahead (IoU 0.65; 9.0 and 14 px, IoU 0.48, before the center's
        // filters followed maneuvers, see `AxisKalmanFilter.update(measurement:measurementNoise:followingManeuvers:)`).
        #expect(low.centerX.velocity < 2.5, "velocity \(low.centerX.velocity)")
        #expect(usual.centerX.velocity > 4.5, "velocity \(usual.centerX.velocity)")
        // 8.0 px a frame with the position noise of 1/20 at every rate, used until the twenty-eighth round.
        #expect(usual.centerX.velocity < 7, "velocity \(usual.centerX.velocity)")
        #expect(low.box.x - 220 < 3 && usual.box.x - 220 > 5, "predicted at x \(low.box.x) and \(usual.box.x)")
        // Nothing moved vertically: no velocity there, whatever the frame rate.
        #expect(abs(low.centerY.velocity) < 1e-9 && abs(usual.centerY.velocity) < 1e-9)
    }
}
