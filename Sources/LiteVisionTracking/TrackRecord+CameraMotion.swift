extension TrackRecord {
    /// Carries the track's prediction for the current frame by the camera's motion: the filter's state (position,
    /// size, their velocities and uncertainties), the remembered size, the boxes detections are compared with, and
    /// the last detected box (a lost track's path starts there: see `ObjectTracker.continuedLostTrack`).
    @inline(__always)
    mutating func move(by motion: CameraMotion, imageWidth: Double, imageHeight: Double) {
        filter.move(by: motion)
        detectionBox = BoundingBox(
            x: motion.scale * detectionBox.x + motion.translationX,
            y: motion.scale * detectionBox.y + motion.translationY,
            width: motion.scale * detectionBox.width, height: motion.scale * detectionBox.height)
        horizontal.reference *= motion.scale
        vertical.reference *= motion.scale
        predictedBox = filter.box
        matchBox = predictedBox.clamped(width: imageWidth, height: imageHeight)
        bufferedMatchBox = matchBox.expanded(by: Self.lostBuffer)
    }
}

extension BoxKalmanFilter {
    /// Maps the state through the camera's motion `x' = s·x + t`: centers are zoomed and shifted, sizes and every
    /// velocity zoomed, and the covariances scaled by `s²` (the filter stays as certain, in the new frame's pixels).
    @inline(__always)
    mutating func move(by motion: CameraMotion) {
        centerX.move(scale: motion.scale, offset: motion.translationX)
        centerY.move(scale: motion.scale, offset: motion.translationY)
        width.move(scale: motion.scale, offset: 0)
        height.move(scale: motion.scale, offset: 0)
    }
}

extension AxisKalmanFilter {
    /// Maps the state through `x' = scale·x + offset`.
    @inline(__always)
    mutating func move(scale: Double, offset: Double) {
        position = scale * position + offset
        velocity *= scale
        let variance = scale * scale
        positionVariance *= variance
        crossCovariance *= variance
        velocityVariance *= variance
    }
}
