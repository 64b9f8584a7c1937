/// How the camera's view moved from one frame to the next, as a zoom and a shift of the image: a point of the
/// scene at `(x, y)` in pixels of the previous frame is at `(scale · x + translationX, scale · y + translationY)`
/// in the next one.
///
/// Give it to ``ObjectTracker/update(_:imageWidth:imageHeight:cameraMotion:)`` when you know it — from your own
/// image registration, a gimbal or an IMU — or let the tracker estimate it from the detections with
/// ``TrackingOptions/cameraMotion`` set to `TrackingOptions.CameraMotionMode.estimated`. A camera panning right by 12
/// pixels per
/// frame moves the scene left: `CameraMotion(translationX: -12, translationY: 0)`. A zoom in by 2 % about the
/// center of a 1280x720 image is `CameraMotion(scale: 1.02, aboutX: 640, y: 360)`. Rotation is not modelled (an
/// upright box stays upright).
public struct CameraMotion: Sendable, Hashable, CustomStringConvertible {
    /// The zoom factor from the previous frame to this one: above 1 when the view zooms in (objects grow).
    public var scale: Double
    /// The horizontal shift, in pixels, added after the zoom (negative when the camera pans right).
    public var translationX: Double
    /// The vertical shift, in pixels, added after the zoom (negative when the camera tilts down).
    public var translationY: Double

    /// No motion: a still camera.
    public static let identity = CameraMotion(scale: 1, translationX: 0, translationY: 0)

    /// A motion from its zoom about the image origin (the top-left corner) and its shift.
    public init(scale: Double = 1, translationX: Double, translationY: Double) {
        self.scale = scale
        self.translationX = translationX
        self.translationY = translationY
    }

    /// A zoom by `scale` about the point `(x, y)` (which stays in place), such as the image center.
    public init(scale: Double, aboutX x: Double, y: Double) {
        self.init(scale: scale, translationX: x - scale * x, translationY: y - scale * y)
    }

    /// Whether the tracker can apply it: every value finite and the scale positive. The tracker ignores a motion
    /// that is not (as if none had been given).
    public var isValid: Bool {
        scale.isFinite && scale > 0 && translationX.isFinite && translationY.isFinite
    }

    /// Where the point `x` of the previous frame is in this one, horizontally.
    @inline(__always)
    func mapX(_ x: Double) -> Double { scale * x + translationX }

    /// Where the point `y` of the previous frame is in this one, vertically.
    @inline(__always)
    func mapY(_ y: Double) -> Double { scale * y + translationY }

    /// `scale 1.02, translation (-12.0, 3.5)`.
    public var description: String {
        "scale \(scale), translation (\(translationX), \(translationY))"
    }
}
