extension ObjectTracker {
    /// Processes the detections of the next frame, taken by a camera that moved by `cameraMotion` since the
    /// previous frame, and returns the tracks matched in it, sorted by ID.
    ///
    /// Every track's prediction — lost tracks' too — is carried by the motion before the detections are matched,
    /// so that objects keep their IDs while the camera pans, shakes or zooms (BoT-SORT's camera-motion
    /// compensation). Give the motion when you know it (your own image registration, a gimbal, an IMU); pass `nil`
    /// for a frame where you do not: with ``TrackingOptions/cameraMotion`` set to
    /// `TrackingOptions.CameraMotionMode.estimated`
    /// the tracker then estimates it from the detections, and with `TrackingOptions.CameraMotionMode.fixed` it takes
    /// the camera
    /// as still. A motion that is not ``CameraMotion/isValid`` counts as `nil`. The motion used is in
    /// ``lastCameraMotion``. Otherwise as ``update(_:imageWidth:imageHeight:)``.
    /// - Parameters:
    ///   - detections: the frame's detections, in pixels of the frame.
    ///   - imageWidth: the frame's width in pixels; it must be positive.
    ///   - imageHeight: the frame's height in pixels; it must be positive.
    ///   - cameraMotion: how the view moved from the previous frame to this one, or `nil`.
    /// - Returns: one ``Track`` per reported object of this frame, each with ``Track/detectionIndex`` set.
    public mutating func update(
        _ detections: [TrackerDetection], imageWidth: Int, imageHeight: Int, cameraMotion: CameraMotion?
    ) -> [Track] {
        cameraMotionEstimator.given = cameraMotion
        defer { cameraMotionEstimator.given = nil }
        return update(detections, imageWidth: imageWidth, imageHeight: imageHeight)
    }

    /// The camera motion the last update moved the tracks by: the one given to
    /// ``update(_:imageWidth:imageHeight:cameraMotion:)``, or the tracker's estimate with
    /// `TrackingOptions.CameraMotionMode.estimated`. `nil` when the tracks were not moved (a still camera, no motion
    /// given, or an
    /// estimate too uncertain or too small to matter: see ``TrackingOptions/cameraMotion``). An estimate is the
    /// motion the tracks' motion models did not already predict: the camera's whole motion once the tracks were
    /// followed while it was compensated, but less when the camera was already moving as they started (their
    /// velocities then hold part of it, as without compensation).
    public var lastCameraMotion: CameraMotion? { cameraMotionEstimator.last }

    /// Moves every track's prediction by the frame's camera motion, given or estimated, before association. Does
    /// nothing (and costs a test) with `TrackingOptions.CameraMotionMode.fixed` when no motion is given.
    mutating func compensateCameraMotion(_ detections: [TrackerDetection], imageWidth: Double, imageHeight: Double) {
        let given = cameraMotionEstimator.given.flatMap { $0.isValid ? $0 : nil }
        guard given != nil || options.cameraMotion == .estimated else {
            cameraMotionEstimator.last = nil
            return
        }
        let motion =
            given
            ?? cameraMotionEstimator.estimate(
                records: records, detections: detections, threshold: options.detectionThreshold,
                imageWidth: imageWidth, imageHeight: imageHeight)
        cameraMotionEstimator.last = motion
        guard let motion, motion != .identity else { return }
        for i in records.indices { records[i].move(by: motion, imageWidth: imageWidth, imageHeight: imageHeight) }
    }
}
