import LiteVisionGeometry

/// The motion model of a track: a constant-velocity Kalman filter on the box center and size.
///
/// State: `(cx, cy, w, h)` and their velocities per frame — eight numbers, kept as four ``AxisKalmanFilter``s.
/// Noise scales with the box, as in ByteTrack and BoT-SORT: standard deviations are ``steadyPositionWeight`` (1/30) of
/// the box size for positions (``positionWeight``, 1/20, under 20 fps), ``measurementWeight`` (7/100) of it for
/// measurements and `1/250` of it for velocities (the width for `cx` and `w`, the height for `cy` and `h`), so a small
/// far object and a large near one are followed alike. A new filter starts with twice ``positionWeight`` as its
/// position deviation and a velocity deviation of ``initialVelocityWeight`` (5/8 of the box size per frame), since its
/// velocity is unknown: its second box sets nearly all of it (and of the rate at which the size changes, jitter
/// included, which the next boxes correct).
///
/// The velocity noise, `1/250` of the size a frame, is smaller than ByteTrack's `1/160`: the velocity then follows a
/// trend over more frames instead of the jitter of the last few boxes, so a track coasting through an occlusion drifts
/// less, and two people crossing keep apart. On the tracking benchmark (docs/tracking-quality.md) this gave, with the
/// standalone threshold of 0.7, +0.9 IDF1 on average over the noise draws used to choose it and +2.4 over draws kept
/// aside; `1/200` and `1/300` did worse on both. Under 20 fps (`TrackingOptions.frameRate`) the center's velocity
/// noise is at least a tenth of the object's speed a frame (see ``predict(lowFrameRate:)``).
///
/// A velocity that steady is slow to follow a walker who stops or turns in sight, while the prediction runs on past
/// the walker, onto the person next to them. So the center's filters follow maneuvers (see
/// ``AxisKalmanFilter/update(measurement:measurementNoise:followingManeuvers:)``): when the measurements keep falling
/// on one side of the predictions, the covariance is widened before the correction, and the velocity follows within a
/// few frames (a walker 40 px wide stopping from 6 px a frame keeps 1 px a frame after six frames standing, 3.6
/// without; 2 and 4 with the position noise of `1/20` at 20 fps and more, used until the twenty-eighth round, and 0.8
/// and 3.9 with the measurement noise of `1/20` too, used until the twenty-seventh). On the tracking
/// benchmark (`docs/tracking-quality.md`, eighteenth round) this won 6 more of 680 draws at the sequences' own frame
/// rate and 5 more of 120 at lower ones, with 2 % and 10 % fewer ID switches.
struct BoxKalmanFilter: Sendable, Equatable {
    /// Position noise weight (fraction of the box size): how far an object may stray from its predicted path in a
    /// frame under 20 fps (see ``predict(lowFrameRate:)``), and, doubled, how far from its first box a new filter's
    /// object may be.
    static let positionWeight = 1.0 / 20
    /// The position noise weight at 20 fps and more: smaller, so the prediction leans on the track's path more than on
    /// its last boxes. ByteTrack and LiteVision until the twenty-eighth round of `docs/tracking-quality.md` used
    /// ``positionWeight`` (`1/20`) throughout; on the tracking benchmark 1/30 won 3 more of 680 draws at the sequences'
    /// own frame rate with 1 % fewer ID switches and larger margins, and as many of 156 under six other noise models
    /// with 4 % fewer switches; 1/40 won one fewer and one more. At lower rates, where an object moves farther between
    /// frames, a smaller noise throughout (a new filter's first deviation included) lost draws.
    static let steadyPositionWeight = 1.0 / 30
    /// Measurement noise weight (fraction of the box size): how far a detector's box may lie from its object. Larger
    /// than the position noise, so each box moves the state, and above all the velocity, by less: the track follows
    /// its object's path rather than its boxes' jitter. ByteTrack and LiteVision until the twenty-seventh round of
    /// `docs/tracking-quality.md` used `1/20`, as for positions; on the tracking benchmark 7/100 won 5 more of 680
    /// draws at the sequences' own frame rate with 5 % fewer ID switches, and 3 fewer of 120 at lower rates with about
    /// as many (and larger margins); under six other noise models, 8 more of 216 with 5 % fewer switches. 6/100, 8/100
    /// and 1/10 did less well at the own rate. A detector that jitters more gets a larger one (see `DetectorJitter`).
    static let measurementWeight = 7.0 / 100
    /// Velocity noise weight (fraction of the box size, per frame).
    static let velocityWeight = 1.0 / 250
    /// The velocity deviation of a new filter (fraction of the box size, per frame): so wide that the filter takes
    /// nearly all of its object's speed from its second box (96 % of it with the noise above), as SORT's filter does,
    /// before the velocity settles. ByteTrack's ten times `1/160` (a sixteenth of the size) learned about a fifth of
    /// it per box, as LiteVision did until the fifteenth round of `docs/tracking-quality.md`: enough at 25–30 frames
    /// per second, where a walker moves a tenth of their width a frame, but at 6–10 (a third to half of it) a new
    /// track's prediction lagged its object and lost it, a new ID every frame or two. On the tracking benchmark's
    /// sequences played at a half, a third and a fifth of their frame rate this won both HOTA and IDF1 against the
    /// best peer in 28, 21 and 22 of 40 draws (25, 15 and 9 before), and at their own rate as many of 680 draws, with
    /// 0.4 % fewer ID switches; a deviation of three or ten times this changed next to nothing more.
    static let initialVelocityWeight = 5.0 / 8
    /// The share of its speed by which a fast object's velocity may change each frame at a low frame rate (see
    /// ``predict(lowFrameRate:)`` and `TrackingOptions.frameRate`).
    static let lowFrameRateTurningShare = 0.1
    /// The smallest size used to scale the noise, so a degenerate box still gets some.
    static let minimumScale = 4.0

    var centerX: AxisKalmanFilter
    var centerY: AxisKalmanFilter
    var width: AxisKalmanFilter
    var height: AxisKalmanFilter

    /// A filter initialized on a first measured box, at rest.
    init(box: BoundingBox) {
        let sw = max(box.width, Self.minimumScale), sh = max(box.height, Self.minimumScale)
        let pw = 2 * Self.positionWeight, vw = Self.initialVelocityWeight
        centerX = AxisKalmanFilter(position: box.midX, positionDeviation: pw * sw, velocityDeviation: vw * sw)
        centerY = AxisKalmanFilter(position: box.midY, positionDeviation: pw * sh, velocityDeviation: vw * sh)
        width = AxisKalmanFilter(position: box.width, positionDeviation: pw * sw, velocityDeviation: vw * sw)
        height = AxisKalmanFilter(position: box.height, positionDeviation: pw * sh, velocityDeviation: vw * sh)
    }

    /// The estimated box (the whole object: it may extend past the image).
    var box: BoundingBox {
        let w = max(width.position, 0), h = max(height.position, 0)
        return BoundingBox(x: centerX.position - w / 2, y: centerY.position - h / 2, width: w, height: h)
    }

    /// Advances one frame. At 20 fps and more (the default) the position noise is ``steadyPositionWeight`` of the size
    /// and the velocity noise ``velocityWeight`` of it. Under (`lowFrameRate`, see `TrackingOptions.frameRate`) the
    /// position noise is ``positionWeight``, and the center's velocity noise ``lowFrameRateTurningShare`` of the
    /// center's speed if more: an object may turn, stop or set off by that share of its speed each frame.
    @inline(__always)
    mutating func predict(lowFrameRate: Bool = false) {
        let sw = max(width.position, Self.minimumScale), sh = max(height.position, Self.minimumScale)
        let p = lowFrameRate ? Self.positionWeight : Self.steadyPositionWeight, v = Self.velocityWeight
        var turning = 0.0
        if lowFrameRate {
            turning =
                Self.lowFrameRateTurningShare
                * (centerX.velocity * centerX.velocity + centerY.velocity * centerY.velocity).squareRoot()
        }
        centerX.predict(positionNoise: p * sw, velocityNoise: max(v * sw, turning))
        centerY.predict(positionNoise: p * sh, velocityNoise: max(v * sh, turning))
        width.predict(positionNoise: p * sw, velocityNoise: v * sw)
        height.predict(positionNoise: p * sh, velocityNoise: v * sh)
    }

    /// Corrects with a measured box, whose deviation is `deviationScale` times the usual one (``measurementWeight`` of
    /// the box size; the tracker scales it for a shared or doubtful box, and for a jittery detector: see
    /// `DetectorJitter`): a larger one moves the state, and above all the velocity, less. With `followingManeuvers`,
    /// the center follows maneuvers (see the type's description); a box two objects may share lies between them frame
    /// after frame, which is no maneuver of either, and must move the velocity less, not more.
    @inline(__always)
    mutating func update(with box: BoundingBox, deviationScale: Double = 1, followingManeuvers: Bool = true) {
        let sw = max(width.position, Self.minimumScale), sh = max(height.position, Self.minimumScale)
        let p = Self.measurementWeight * deviationScale
        centerX.update(measurement: box.midX, measurementNoise: p * sw, followingManeuvers: followingManeuvers)
        centerY.update(measurement: box.midY, measurementNoise: p * sh, followingManeuvers: followingManeuvers)
        width.update(measurement: box.width, measurementNoise: p * sw)
        height.update(measurement: box.height, measurementNoise: p * sh)
    }

    /// Stops the size from changing while the track coasts (an unseen object is assumed to keep its size;
    /// ByteTrack does the same for the height).
    @inline(__always)
    mutating func freezeSize() {
        width.velocity = 0
        height.velocity = 0
    }
}
