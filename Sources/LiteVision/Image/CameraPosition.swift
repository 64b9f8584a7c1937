/// Which camera took a frame (as `AVCaptureDevice.Position`).
public enum CameraPosition: Sendable, CaseIterable {
    /// The camera on the back of the device, facing away from the user.
    case back
    /// The camera on the screen side, facing the user (its frames are mirrored).
    case front
}
