/// The physical orientation of the device holding the camera (as `UIDeviceOrientation`).
public enum DeviceOrientation: Sendable, CaseIterable {
    case portrait, portraitUpsideDown, landscapeLeft, landscapeRight, faceUp, faceDown, unknown
}
