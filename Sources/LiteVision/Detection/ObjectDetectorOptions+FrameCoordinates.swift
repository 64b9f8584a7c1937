extension ObjectDetectorOptions {
    /// The coordinate space of ``DetectedObject/frame`` (LiteVision addition; see
    /// ``CommonObjectDetectorOptions/frameCoordinates``).
    ///
    /// ML Kit's platforms differ here. On Android, and in MediaPipe, an object's frame is in the upright image,
    /// the image as its rotation turns it. On iOS, the frames of a `VisionImage(buffer:)` are in the camera
    /// buffer's own pixels, before `orientation` turns them: the official iOS sample divides `object.frame` by
    /// `CVPixelBufferGetWidth`/`Height` and hands the result to
    /// `AVCaptureVideoPreviewLayer.layerRectConverted(fromMetadataOutputRect:)`, which expects the sensor's
    /// unrotated space, and googlesamples/mlkit#528 reports the same behaviour. LiteVision returns upright frames
    /// by default; choose ``cameraBuffer`` for overlay code written for iOS.
    public enum FrameCoordinates: Sendable, Hashable {
        /// Frames in the upright image: the image as ``VisionImage/orientation`` turns it (as ML Kit on Android
        /// and MediaPipe). The default.
        case upright
        /// As ML Kit on iOS: the frames of an image made from pixels in memory
        /// (``VisionImage/init(buffer:orientation:)``, ``VisionImage/init(pixels:width:height:format:bytesPerRow:orientation:)``
        /// and the YUV camera-frame initializers) are in the buffer's own pixels, as stored, before
        /// ``VisionImage/orientation`` turns them; those of image files and of ``VisionImage/init(image:orientation:)``
        /// (ML Kit's `VisionImage(image: UIImage)`) stay upright.
        case cameraBuffer
    }
}
