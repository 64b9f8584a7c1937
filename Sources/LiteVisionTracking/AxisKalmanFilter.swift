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
    /// The recent innovations' trend: their exponentially weighted mean (weight ``maneuverMemory`` on the past), each
    /// in deviations of the innovation (see ``update(measurement:measurementNoise:followingManeuvers:)``).
    var innovationTrend = 0.0

    /// The weight of the past in ``innovationTrend``: with 0.6, a measurement's share halves in about a frame and a
    /// half. The trend of innovations that are noise of unit deviation would have a deviation of 0.5; the box
    /// filter's are smaller (its position noise comes on top of its measurement noise, so it expects larger
    /// innovations than a steady walker's boxes give).
    static let maneuverMemory = 0.6
    /// The ``innovationTrend`` (in deviations) beyond which the object counts as maneuvering: stopping, turning or
    /// setting off. A steady walker's boxes jittered by 1/20 of the size never reached it in 16,000 simulated frames;
    /// jittered by 7 % of the size (the benchmark's heavy noise), in 0.1 % of them (measured with the box filter's
    /// measurement noise of 1/20 of the size; its larger one since then moves the trend less).
    static let maneuverThreshold = 1.2
    /// By how much the covariance is multiplied before a measurement while the object maneuvers, so that the state,
    /// the velocity above all, takes more of the measurement in.
    static let maneuverInflation = 3.0

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
    ///
    /// With `followingManeuvers`, the innovation (the measurement's distance from the prediction, in deviations)
    /// first joins ``innovationTrend``; when the trend passes ``maneuverThreshold`` either way, the measurements have
    /// been falling on one side of the predictions for a few frames (the object stopped, turned or set off, which a
    /// constant-velocity model does not foresee), and the covariance is multiplied by ``maneuverInflation`` before the
    /// correction: a fading memory that lets the velocity follow the change within a few frames. Noise, whose
    /// innovations change sign, seldom moves the trend that far. A single measurement more than 3 deviations off moves
    /// a trend near 0 past the threshold at once, and takes more weight: a jump that large is more often a change of
    /// pace than noise. (Limiting each innovation to 2.5 deviations, so that a maneuver takes two frames on one side,
    /// won one draw fewer on the tracking benchmark: `docs/tracking-quality.md`, eighteenth round.)
    @inline(__always)
    mutating func update(measurement: Double, measurementNoise: Double, followingManeuvers: Bool = false) {
        let measurementVariance = measurementNoise * measurementNoise
        var innovationVariance = positionVariance + measurementVariance
        if followingManeuvers {
            let normalized = (measurement - position) / innovationVariance.squareRoot()
            innovationTrend = Self.maneuverMemory * innovationTrend + (1 - Self.maneuverMemory) * normalized
            if abs(innovationTrend) > Self.maneuverThreshold {
                positionVariance *= Self.maneuverInflation
                crossCovariance *= Self.maneuverInflation
                velocityVariance *= Self.maneuverInflation
                innovationVariance = positionVariance + measurementVariance
            }
        }
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
