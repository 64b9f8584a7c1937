import LiteRT
import LiteVisionImaging

/// One compiled model plus the scratch memory a call needs, used by one caller at a time.
final class InferenceSession {
    let compiled: CompiledModel
    /// Resized pixels in stored orientation, when they cannot go straight into the input tensor.
    var resized: [UInt8] = []
    /// Upright pixels, for float models fed from a rotated image.
    var oriented: [UInt8] = []
    /// The resize coefficients of the last call.
    var cachedPlan: ResizePlan?
    /// The sampling tables of the last `.mediapipe` call.
    var cachedWarpPlan: WarpPlan?
    /// Dequantized scores of the output.
    var scores: [Float] = []

    init(compiled: CompiledModel) {
        self.compiled = compiled
    }
}

extension InferenceSession {
    /// The resize coefficients for a `sourceWidth`×`sourceHeight` → `width`×`height` resize of pixels stored
    /// `transposed` from upright (see ``ResizePlan``), kept from the previous call when they are the same
    /// (every frame of a video).
    func plan(sourceWidth: Int, sourceHeight: Int, width: Int, height: Int, transposed: Bool) -> ResizePlan {
        if let cached = cachedPlan,
            cached.matches(
                sourceWidth: sourceWidth, sourceHeight: sourceHeight,
                width: width, height: height, transposed: transposed)
        {
            return cached
        }
        let plan = ResizePlan(
            sourceWidth: sourceWidth, sourceHeight: sourceHeight, width: width, height: height,
            transposed: transposed)
        cachedPlan = plan
        return plan
    }
}
