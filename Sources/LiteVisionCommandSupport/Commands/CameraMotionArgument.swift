import ArgumentParser
import LiteVisionTracking

/// `litevision track --detections FILE --camera-motion fixed|auto`: whether the tracker takes the camera as still
/// or estimates its motion from the boxes (``TrackingOptions/cameraMotion``).
package enum CameraMotionArgument: String, ExpressibleByArgument, CaseIterable, Sendable {
    /// A still camera (the default, as ML Kit).
    case fixed
    /// A moving camera: its motion is estimated from the detections (`TrackingOptions.CameraMotionMode.estimated`).
    case auto

    /// The tracker's mode.
    package var mode: TrackingOptions.CameraMotionMode {
        switch self {
        case .fixed: .fixed
        case .auto: .estimated
        }
    }
}
