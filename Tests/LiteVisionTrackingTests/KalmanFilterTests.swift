import LiteVisionGeometry
import LiteVisionTestSupport
import Testing
@testable import LiteVisionTracking

@Suite("Motion model")
struct KalmanFilterTests {
    @Test("A constant-velocity filter learns the velocity and extrapolates it")
    func learnsVelocity() {
        var filter = AxisKalmanFilter(position: 10, positionDeviation: 5, velocityDeviation: 2)
        for t in 1...30 {
            filter.predict(positionNoise: 1, velocityNoise: 0.1)
            filter.update(measurement: 10 + 3 * Double(t), measurementNoise: 2)
        }
        #expect(abs(filter.velocity - 3) < 0.1)
        #expect(abs(filter.position - 100) < 1)
        filter.predict(positionNoise: 1, velocityNoise: 0.1)
        #expect(abs(filter.position - 103) < 1)
        // The covariance stays a valid (positive definite) matrix.
        #expect(filter.positionVariance > 0 && filter.velocityVariance > 0)
        #expect(filter.crossCovariance * filter.crossCovariance < filter.positionVariance * filter.velocityVariance)
    }

    @Test("A new box filter takes nearly all of its object's speed from its second box")
    func newFilterLearnsSpeedAtOnce() {
        // A walker 40 px wide moving 20 px a frame, half their width: a 30-fps scene played at 6 frames per second.
        // With ByteTrack's start (a velocity deviation of 1/16 of the width, the default until the fifteenth round of
        // docs/tracking-quality.md) the velocity after the second box was 4.1 px a frame, and the next prediction
        // 18 px behind the walker (IoU 0.37 instead of about 1), an ever larger lag that lost it at this speed.
        var filter = BoxKalmanFilter(box: BoundingBox(x: 100, y: 100, width: 40, height: 100))
        filter.predict()
        filter.update(with: BoundingBox(x: 120, y: 100, width: 40, height: 100))
        #expect(filter.centerX.velocity > 0.95 * 20 && filter.centerX.velocity < 20)
        filter.predict()
        #expect(abs(filter.box.x - 140) < 1.5, "predicted at x \(filter.box.x)")
        // Nothing moved vertically, and the size did not change: no velocity there.
        #expect(abs(filter.centerY.velocity) < 1e-9 && abs(filter.width.velocity) < 1e-9)
    }

    /// The center's filter along x for a walker `width` px wide, measured at each of `positions` (their left edge)
    /// with the box filter's noise, following maneuvers or not; the velocities and the trend after each measurement.
    static func walk(
        _ positions: [Double], width: Double, followingManeuvers: Bool
    ) -> (
        filter: AxisKalmanFilter, velocities: [Double], trends: [Double]
    ) {
        let p = BoxKalmanFilter.steadyPositionWeight * width, v = BoxKalmanFilter.velocityWeight * width
        let m = BoxKalmanFilter.measurementWeight * width
        var filter = AxisKalmanFilter(
            position: positions[0] + width / 2, positionDeviation: 2 * BoxKalmanFilter.positionWeight * width,
            velocityDeviation: BoxKalmanFilter.initialVelocityWeight * width)
        var velocities: [Double] = [], trends: [Double] = []
        for x in positions.dropFirst() {
            filter.predict(positionNoise: p, velocityNoise: v)
            filter.update(measurement: x + width / 2, measurementNoise: m, followingManeuvers: followingManeuvers)
            velocities.append(filter.velocity)
            trends.append(filter.innovationTrend)
        }
        return (filter, velocities, trends)
    }

    @Test("Following maneuvers, the velocity follows a stop or a turn within a few frames")
    func followsManeuvers() {
        // A walker 40 px wide, 6 px a frame for 40 frames (a brisk walk near the camera), who stops for 6 frames.
        let stop = (0...40).map { 100 + 6 * Double($0) } + Array(repeating: 340, count: 6)
        let following = Self.walk(stop, width: 40, followingManeuvers: true)
        let steady = Self.walk(stop, width: 40, followingManeuvers: false)
        // 1.0 px a frame left of 6 (the prediction 1 px ahead), against 3.6 (3.6 px ahead) with the steady velocity;
        // 2.0 and 4.0 with the position noise of 1/20 at every frame rate, used until the twenty-eighth round.
        #expect(following.filter.velocity < 1.5, "velocity \(following.filter.velocity)")
        #expect(steady.filter.velocity > 3, "velocity \(steady.filter.velocity)")
        // Walking back the same way at 3 px a frame, 55 px wide: the velocity changes sign in 5 frames (-1.2 px a
        // frame at the sixth), the steady one still carries the walker on after 7 (+0.2).
        let turn = (0...40).map { 100 + 3 * Double($0) } + (1...8).map { 220 - 3 * Double($0) }
        let turning = Self.walk(turn, width: 55, followingManeuvers: true).velocities
        let steadyTurn = Self.walk(turn, width: 55, followingManeuvers: false).velocities
        #expect(turning[45] < -0.5 && steadyTurn[46] > 0, "velocities \(turning[45]) and \(steadyTurn[46])")
    }

    @Test("Following maneuvers, a detector's noise alone leaves the velocity steady")
    func noiseIsNoManeuver() {
        // A walker 55 px wide at 3.3 px a frame, each box's center off by 1/20 of the width at random (less than the
        // filter's measurement noise): the trend stays under the threshold, and the velocity near the pace.
        var generator = SeededGenerator(seed: 11)
        let noisy = (0...300).map { 100 + 3.3 * Double($0) + generator.nextGaussian() * 55 / 20 }
        let following = Self.walk(noisy, width: 55, followingManeuvers: true)
        #expect(following.trends.allSatisfy { abs($0) < AxisKalmanFilter.maneuverThreshold })
        #expect(following.velocities.dropFirst(30).allSatisfy { abs($0 - 3.3) < 0.6 })
    }

    @Test("Only the center follows maneuvers, and not on a box two objects may share")
    func maneuversOfTheCenterOnly() {
        // An object 40 px wide standing for 20 frames, then setting off at 4 px a frame and growing 1 px a frame.
        let boxes = (0..<35).map { t in
            let moved = Double(max(0, t - 19))
            return BoundingBox(x: 100 + 4 * moved, y: 100, width: 40 + moved, height: 100)
        }
        func trends(shared: Bool) -> (center: Double, size: Double) {
            var filter = BoxKalmanFilter(box: boxes[0])
            var center = 0.0, size = 0.0
            for box in boxes.dropFirst() {
                filter.predict()
                filter.update(
                    with: box, deviationScale: shared ? TrackRecord.sharedBoxDeviation : 1, followingManeuvers: !shared)
                center = max(center, abs(filter.centerX.innovationTrend), abs(filter.centerY.innovationTrend))
                size = max(size, abs(filter.width.innovationTrend), abs(filter.height.innovationTrend))
            }
            return (center, size)
        }
        // Setting off is a maneuver (the largest trend 1.3); the size's filters keep no trend.
        let usual = trends(shared: false)
        #expect(usual.center > AxisKalmanFilter.maneuverThreshold && usual.size == 0, "trends \(usual)")
        // A shared box lies between two objects frame after frame: it must move the velocity less, never more.
        let shared = trends(shared: true)
        #expect(shared.center == 0 && shared.size == 0, "trends \(shared)")
    }

    @Test("Uncertainty grows while coasting and shrinks with measurements")
    func uncertainty() {
        var filter = AxisKalmanFilter(position: 0, positionDeviation: 5, velocityDeviation: 2)
        filter.update(measurement: 0, measurementNoise: 2)
        let measured = filter.positionVariance
        for _ in 0..<5 { filter.predict(positionNoise: 1, velocityNoise: 0.1) }
        #expect(filter.positionVariance > measured)
        let coasted = filter.positionVariance
        filter.update(measurement: 0, measurementNoise: 2)
        #expect(filter.positionVariance < coasted)
    }

    @Test("The box filter follows a box moving and growing steadily")
    func boxFilter() {
        var filter = BoxKalmanFilter(box: BoundingBox(x: 100, y: 100, width: 50, height: 80))
        for t in 1...40 {
            filter.predict()
            let d = Double(t)
            filter.update(with: BoundingBox(x: 100 + 4 * d, y: 100 - 2 * d, width: 50 + 0.5 * d, height: 80 + 0.8 * d))
        }
        filter.predict()
        let box = filter.box
        #expect(abs(box.x - (100 + 4 * 41)) < 2)
        #expect(abs(box.y - (100 - 2 * 41)) < 2)
        #expect(abs(box.width - (50 + 0.5 * 41)) < 2)
        #expect(abs(box.height - (80 + 0.8 * 41)) < 2)
    }
}
