extension ProcessingOptions {
    /// How an image is turned into a model's input: which resampling stretches it to the input size.
    ///
    /// Both stretch the whole upright image (or an object's crop) to the model input, aspect ratio not kept.
    /// They differ in how pixels are sampled, and so in the scores (by up to 0.1–0.35 on low-confidence
    /// answers of large photos; confident answers agree).
    ///
    /// ```swift
    /// let options = CustomImageLabelerOptions(localModel: LocalModel(path: "bird.tflite"))
    /// options.processing.preprocessing = .mediapipe   // MediaPipe Tasks' scores, bit for bit, from the same file
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
        /// antialiasing; float inputs get MediaPipe's `pixel × scale + offset`. It reads only as many pixels as
        /// the model takes, so it costs about the same on any photo (well under a millisecond).
        ///
        /// Image files are decoded as MediaPipe's `Image.create_from_file` decodes them, so that from the same
        /// file the scores are MediaPipe's exactly (as from the same pixels, for pixel buffers):
        /// - with stb_image, MediaPipe's decoder, whose JPEG pixels differ from libjpeg-turbo's (those of
        ///   ``exact`` and Pillow) by a few levels, more near sharp colour edges; 16-bit PNG samples keep their high
        ///   byte, a PNG `gAMA` chunk is ignored, alpha is dropped and gray is repeated in red, green and blue (what
        ///   MediaPipe's preprocessing does with its RGBA and gray images);
        /// - turned by the EXIF orientation as MediaPipe reads it: JPEG only (a PNG's `eXIf` chunk is ignored), an
        ///   `Orientation` stored as SHORT in the file's first APP1 segment, none when the EXIF data is faulty. For
        ///   the rare files where that differs from ``VisionImage/imageOrientation``, results are in the
        ///   coordinates of the picture as MediaPipe turns it. An orientation you set is used as is;
        /// - at full size: ``ProcessingOptions/decodingScale`` does not apply, nor does
        ///   ``ProcessingOptions/allowsDamagedImageData``, since stb_image has a single mode: it refuses what it
        ///   cannot decode (a JPEG cut short, a bad Huffman code) but decodes some damage libjpeg-turbo and libpng
        ///   refuse (it does not check PNG CRCs), as MediaPipe does.
        ///
        /// Gray files are the exception: MediaPipe opens them but its classifier and detector fail on their one
        /// channel, where LiteVision gives the scores of the gray pixels as RGB. MediaPipe refuses gray PNGs with
        /// alpha, which LiteVision reads as gray. Decoding with stb_image is bounded as the other decoders are
        /// (the 100-megapixel limit from the header, before any pixel is allocated).
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
