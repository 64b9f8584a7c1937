import LiteVisionGeometry

extension ImageOrientation {
    /// The orientation of a camera frame taken with the device held in `deviceOrientation`, by the camera at
    /// `cameraPosition` — the mapping of ML Kit's guides (`imageOrientation(deviceOrientation:cameraPosition:)`):
    /// portrait → right (front camera: leftMirrored); landscapeLeft → up (downMirrored); portraitUpsideDown →
    /// left (rightMirrored); landscapeRight → down (upMirrored); face up, face down and unknown → up.
    public init(deviceOrientation: DeviceOrientation, cameraPosition: CameraPosition) {
        let front = cameraPosition == .front
        switch deviceOrientation {
        case .portrait: self = front ? .leftMirrored : .right
        case .landscapeLeft: self = front ? .downMirrored : .up
        case .portraitUpsideDown: self = front ? .rightMirrored : .left
        case .landscapeRight: self = front ? .upMirrored : .down
        case .faceUp, .faceDown, .unknown: self = .up
        }
    }
}
