/// Two reported tracks whose boxes met, followed until they part (see `ObjectTracker.resolveCrossings()`).
struct TrackContact: Sendable {
    /// Where an object would be had it kept, since the two tracks met, the velocity its track had then: a point moved
    /// by that velocity each frame (and by the camera's motion, when the tracker compensates it).
    struct Reckoning: Sendable {
        var x: Double
        var y: Double
        var velocityX: Double
        var velocityY: Double

        /// The position and velocity of a track's center.
        init(_ filter: BoxKalmanFilter) {
            x = filter.centerX.position
            y = filter.centerY.position
            velocityX = filter.centerX.velocity
            velocityY = filter.centerY.velocity
        }

        /// Moves the point one frame on, then by the frame's camera motion, if any (as the tracks' predictions).
        mutating func advance(cameraMotion motion: CameraMotion?) {
            x += velocityX
            y += velocityY
            guard let motion else { return }
            x = motion.mapX(x)
            y = motion.mapY(y)
            velocityX *= motion.scale
            velocityY *= motion.scale
        }

        /// The squared distance from the point to a track's center.
        func squaredDistance(to filter: BoxKalmanFilter) -> Double {
            let dx = filter.centerX.position - x, dy = filter.centerY.position - y
            return dx * dx + dy * dy
        }
    }

    /// The ID of one track.
    var first: Int
    /// The ID of the other.
    var second: Int
    /// Where the object of `first` would be at its velocity when the two met.
    var firstReckoning: Reckoning
    /// Where the object of `second` would be.
    var secondReckoning: Reckoning
    /// Frames since the two met.
    var frames = 0
    /// Whether one of the tracks was unmatched when the two met (its box a prediction).
    var startedUnseen: Bool
    /// Whether either track went unmatched in a frame since the two met (or when they met).
    var wasUnseen: Bool

    /// A contact from the moment two tracks met.
    init(first: Int, second: Int, firstReckoning: Reckoning, secondReckoning: Reckoning, startedUnseen: Bool) {
        self.first = first
        self.second = second
        self.firstReckoning = firstReckoning
        self.secondReckoning = secondReckoning
        self.startedUnseen = startedUnseen
        wasUnseen = startedUnseen
    }

    /// Whether the contact is between the tracks of IDs `a` and `b`, in either order.
    func joins(_ a: Int, _ b: Int) -> Bool { (first == a && second == b) || (first == b && second == a) }

    /// Whether the contact involves the track of ID `id`.
    func involves(_ id: Int) -> Bool { first == id || second == id }
}
