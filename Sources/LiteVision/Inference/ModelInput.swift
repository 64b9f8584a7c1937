/// What a model's image input takes: its size, and how pixels are scaled for a float32 input.
struct ModelInput: Sendable {
    /// Per-channel `(value - mean) * inverseStd`, from the model metadata's NormalizationOptions.
    struct Normalization: Sendable {
        var mean: SIMD3<Float>
        var inverseStd: SIMD3<Float>
        /// The metadata's std (MediaPipe's preprocessing derives its own scale from it).
        var std: SIMD3<Float>
    }

    /// The input's width and height, in pixels (the image is resized to it, aspect ratio not kept).
    var width: Int
    var height: Int
    /// `nil` for a uint8 input (bytes as they are); the scaling for a float32 input.
    var normalization: Normalization?
}
