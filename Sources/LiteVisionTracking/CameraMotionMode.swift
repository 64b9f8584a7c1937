extension TrackingOptions {
    /// Whether the tracker takes the camera as still or looks for its motion: ``TrackingOptions/cameraMotion``.
    public enum CameraMotionMode: String, Sendable, Hashable, CaseIterable {
        /// The default, as ML Kit: the camera is taken as still. Only a motion given to an `ObjectTracker` used alone
        /// (`update(_:imageWidth:imageHeight:cameraMotion:)`) moves the tracks.
        case fixed
        /// For a moving camera (handheld, on a vehicle, panning or zooming): for each frame without a given
        /// `CameraMotion`, the tracker estimates one from the detections — the zoom and shift that best carry the
        /// predicted boxes of the objects matched in the previous frame onto this frame's confident detections — and
        /// moves every track by it (lost ones included) before matching. See ``TrackingOptions/cameraMotion``.
        case estimated
    }
}
