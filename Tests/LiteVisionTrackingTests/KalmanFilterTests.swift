import LiteVisionGeometry
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
