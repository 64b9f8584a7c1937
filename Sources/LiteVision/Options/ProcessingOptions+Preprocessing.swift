extension ProcessingOptions {
    /// How an image is turned into a model's input: which resampling stretches it to the input size.
    ///
    /// Both stretch the whole upright image (or an object's crop) to the model input, aspect ratio not kept.
    /// They differ in how pixels are sampled, and so in the scores (by up to 0.1–0.35 on low-confidence
    /// answers of large photos; confident answers agree).
    ///
    /// ```swift
    /// let options = CustomImageLabelerOptions(localModel: LocalModel(path: "bird.tflite"))
    /// options.processing.preprocessing = .mediapipe   // MediaPipe Tasks' scores, bit for bit
    /// ```
    public enum Preprocessing: Sendable, Hashable, CaseIterable, CustomStringConvertible {
        /// Antialiased bilinear resizing, byte-identical to Pillow's `BILINEAR` resize of the upright image:
        /// every source pixel contributes. The convention of the reference outputs, and the default. Its cost
        /// grows with the image (a few milliseconds on a 12 MP photo).
        case exact
        /// MediaPipe Tasks' CPU preprocessing (ImageClassifier, ObjectDetector; version 1.2.2): OpenCV's
        /// `warpPerspective(INTER_LINEAR, BORDER_REPLICATE)` as it was before OpenCV 4.11. Each input pixel
        /// samples the upright image at `input position × image size / input size` (corner-aligned, no
        /// half-pixel offset) rounded to 1/32 pixel, mixing four pixels with 15-bit fixed-point weights, without
        /// antialiasing; float inputs get MediaPipe's `pixel × scale + offset`. Given the same pixels, the scores
        /// are MediaPipe's exactly. It reads only as many pixels as the model takes, so it costs about the same
        /// on any photo (well under a millisecond).
        case mediapipe

        /// `exact` or `mediapipe`, as the command line writes it.
        public var description: String {
            switch self {
            case .exact: "exact"
            case .mediapipe: "mediapipe"
            }
        }

        /// The mode named `exact` or `mediapipe`; nil for any other name.
        public init?(name: String) {
            guard let mode = Self.allCases.first(where: { $0.description == name }) else { return nil }
            self = mode
        }
    }
}
