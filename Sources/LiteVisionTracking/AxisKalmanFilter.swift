/// A constant-velocity Kalman filter on one coordinate: state `(position, velocity)` with its 2×2 covariance.
///
/// ``BoxKalmanFilter`` runs four of these. The 8-dimensional constant-velocity model of a box (center, size
/// and their velocities) never couples different coordinates — the transition, the process noise, the
/// measurement matrix and the measurement noise are all per coordinate — so its covariance stays block
/// diagonal and the 8×8 filter is exactly four independent 2×2 filters, with no matrix inversion.
struct AxisKalmanFilter: Sendable, Equatable {
    /// Estimated position.
    var position: Double
    /// Estimated velocity, per frame.
    var velocity: Double
    /// Covariance: variance of the position.
    var positionVariance: Double
    /// Covariance between position and velocity.
    var crossCovariance: Double
    /// Covariance: variance of the velocity.
    var velocityVariance: Double

    /// A filter at `position` with no velocity and the given standard deviations.
    init(position: Double, positionDeviation: Double, velocityDeviation: Double) {
        self.position = position
        velocity = 0
        positionVariance = positionDeviation * positionDeviation
        crossCovariance = 0
        velocityVariance = velocityDeviation * velocityDeviation
    }

    /// Advances one frame: `x' = F x`, `P' = F P Fᵀ + Q` with `F = [[1, 1], [0, 1]]` and `Q` diagonal.
    @inline(__always)
    mutating func predict(positionNoise: Double, velocityNoise: Double) {
        position += velocity
        positionVariance += 2 * crossCovariance + velocityVariance + positionNoise * positionNoise
        crossCovariance += velocityVariance
        velocityVariance += velocityNoise * velocityNoise
    }

    /// Corrects with a measured position of standard deviation `measurementNoise`.
    @inline(__always)
    mutating func update(measurement: Double, measurementNoise: Double) {
        let innovationVariance = positionVariance + measurementNoise * measurementNoise
        let gainPosition = positionVariance / innovationVariance
        let gainVelocity = crossCovariance / innovationVariance
        let innovation = measurement - position
        position += gainPosition * innovation
        velocity += gainVelocity * innovation
        // P' = (I - K H) P, written out for the symmetric 2×2 case.
        let newVelocityVariance = velocityVariance - gainVelocity * crossCovariance
        let newCross = crossCovariance - gainPosition * crossCovariance
        positionVariance -= gainPosition * positionVariance
        crossCovariance = newCross
        velocityVariance = newVelocityVariance
    }
}
