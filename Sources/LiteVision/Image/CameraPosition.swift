/// Which camera took a frame (as `AVCaptureDevice.Position`).
public enum CameraPosition: Sendable, CaseIterable {
    case back, front
}
