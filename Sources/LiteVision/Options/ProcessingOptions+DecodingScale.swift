extension ProcessingOptions {
    /// How far an encoded JPEG may be downscaled while it is decoded.
    public enum DecodingScale: Sendable, Hashable {
        /// Decode every pixel: results match the reference convention (full decode, then antialiased resize).
        /// The default.
        case full
        /// Let libjpeg-turbo decode at 1/2, 1/4 or 1/8 size in the DCT domain, as long as the result stays at
        /// least ``automaticMargin`` times the model input in both directions. Faster on large photos (beach.jpg,
        /// 12 MP: about 2x), but the DCT-domain reduction is a box filter, not the reference's triangle filter:
        /// confident labels do not change, while low-confidence scores move by up to about 0.07 (measured on the
        /// shared photos: bird.tflite on liberty.jpg 0.23 instead of 0.17). Choose it when speed matters more.
        case automatic

        /// How many times larger than the model input an automatically downscaled decode stays.
        public static let automaticMargin = 2
    }
}
