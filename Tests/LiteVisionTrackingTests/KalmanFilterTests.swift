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
