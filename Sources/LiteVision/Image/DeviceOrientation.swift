/// The physical orientation of the device holding the camera (as `UIDeviceOrientation`).
public enum DeviceOrientation: Sendable, CaseIterable {
    /// Upright, the home button (or bottom edge) down.
    case portrait
    /// Upside down, the bottom edge up.
    case portraitUpsideDown
    /// On its side, the bottom edge to the right (the device turned left).
    case landscapeLeft
    /// On its side, the bottom edge to the left (the device turned right).
    case landscapeRight
    /// Flat, screen up.
    case faceUp
    /// Flat, screen down.
    case faceDown
    /// Not known.
    case unknown
}
