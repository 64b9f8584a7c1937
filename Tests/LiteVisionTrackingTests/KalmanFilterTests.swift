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

    @Test("Partial boxes are completed to the remembered size")
    func partialObservation() {
        var axis = PartialObservation(size: 100)
        // Cut by the right border of a 640-wide image: the left edge is real.
        let cut = axis.measure(
            low: 580, high: 640, predictedLow: 575, predictedHigh: 675, extent: 640, margin: 6.4,
            confident: true)
        #expect(cut.low == 580 && cut.size == 100)
        // Hidden on the right behind something: the left edge agrees with the prediction and is kept.
        let hidden = axis.measure(
            low: 300, high: 340, predictedLow: 301, predictedHigh: 401, extent: 640,
            margin: 6.4, confident: false)
        #expect(hidden.low == 300 && hidden.size == 100)
        // Hidden on the left: the right edge is kept.
        let left = axis.measure(
            low: 360, high: 400, predictedLow: 301, predictedHigh: 401, extent: 640,
            margin: 6.4, confident: false)
        #expect(left.low == 300 && left.size == 100)
        #expect(axis.reference == 100)
        // A whole box, larger or smaller, moves the reference a fifth of the way.
        let larger = axis.measure(
            low: 300, high: 420, predictedLow: 300, predictedHigh: 400, extent: 640, margin: 6.4,
            confident: true)
        #expect(larger.low == 300 && larger.size == 120)
        #expect(abs(axis.reference - 104) < 1e-9)
        _ = axis.measure(
            low: 300, high: 394, predictedLow: 300, predictedHigh: 404, extent: 640, margin: 6.4,
            confident: true)
        #expect(abs(axis.reference - 102) < 1e-9)
        _ = axis.measure(
            low: 300, high: 430, predictedLow: 300, predictedHigh: 402, extent: 640, margin: 6.4,
            confident: true)
        #expect(abs(axis.reference - 107.6) < 1e-9)
    }

    @Test("Jittered whole boxes keep the reference at the object's typical size, not its largest box")
    func jitterDoesNotRatchet() {
        var axis = PartialObservation(size: 100)
        // Widths of 110 and 90 in turns, as a detector's jitter or a walker's gait gives: all whole (over 80 % of the
        // reference). The reference must stay near their mean; one that jumped to larger boxes and followed smaller
        // ones slowly would sit near 106-110, and a box of 84 would then be taken as partly hidden.
        for _ in 0..<20 {
            for width in [110.0, 90.0] {
                _ = axis.measure(
                    low: 300, high: 300 + width, predictedLow: 300, predictedHigh: 400, extent: 640, margin: 6.4,
                    confident: true)
            }
        }
        #expect(abs(axis.reference - 100) < 3)
        let next = axis.measure(
            low: 300, high: 384, predictedLow: 300, predictedHigh: 400, extent: 640, margin: 6.4, confident: false)
        #expect(next.size == 84)
    }

    @Test("A confident box that stays small for long becomes the new size")
    func realShrink() {
        var axis = PartialObservation(size: 100)
        var last = (low: 0.0, size: 0.0)
        for _ in 0...PartialObservation.maximumPartialStreak {
            last = axis.measure(
                low: 200, high: 250, predictedLow: 200, predictedHigh: 300, extent: 640, margin: 6.4,
                confident: true)
        }
        #expect(last.size == 50)
        #expect(axis.reference == 50)
    }

    @Test("Until the track is established, a confident small box is the new size at once")
    func firstBoxesAreWhole() {
        // A first box that came out large (100), then the object's ordinary boxes (72).
        #expect(Self.sizes(ofBoxesUpTo: 272, count: 3, established: false) == [72, 72, 72])
        #expect(Self.sizes(ofBoxesUpTo: 272, count: 3, established: true) == [100, 100, 100])
        // A weak box is still a partial view.
        var axis = PartialObservation(size: 100)
        let weak = axis.measure(
            low: 200, high: 272, predictedLow: 200, predictedHigh: 300, extent: 640, margin: 6.4,
            confident: false, established: false)
        #expect(weak.size == 100 && axis.reference == 100)
    }

    @Test("With no other track near, a confident small box becomes the new size after two updates, not ten")
    func unobstructedShrink() {
        #expect(PartialObservation.unobstructedPartialStreak == 2)
        // Completed twice (it may be passing behind something the tracker does not follow), then taken as it is.
        #expect(Self.sizes(ofBoxesUpTo: 250, count: 4, unobstructed: true) == [100, 100, 50, 50])
        #expect(Self.sizes(ofBoxesUpTo: 250, count: 4, unobstructed: false) == [100, 100, 100, 100])
        // A weak box stays a partial view either way.
        var axis = PartialObservation(size: 100)
        for _ in 0..<4 {
            let weak = axis.measure(
                low: 200, high: 250, predictedLow: 200, predictedHigh: 300, extent: 640, margin: 6.4,
                confident: false, unobstructed: true)
            #expect(weak.size == 100)
        }
    }

    /// The sizes measured for `count` confident boxes `200...high` in a row, on an axis remembering 100 and
    /// predicting `200...300`.
    static func sizes(
        ofBoxesUpTo high: Double, count: Int, unobstructed: Bool = false, established: Bool = true
    )
        -> [Double]
    {
        var axis = PartialObservation(size: 100)
        return (0..<count).map { _ in
            axis.measure(
                low: 200, high: high, predictedLow: 200, predictedHigh: 300, extent: 640, margin: 6.4,
                confident: true, unobstructed: unobstructed, established: established
            ).size
        }
    }
}
