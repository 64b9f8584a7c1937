import LiteVisionGeometry
import LiteVisionImaging

/// Turns an image (or a region of it) into a model's input the way MediaPipe Tasks does on CPU
/// (``ProcessingOptions/Preprocessing/mediapipe``): the upright image stretched to the input by OpenCV's
/// pre-4.11 bilinear warp (see ``WarpPlan``), read straight from the stored pixels in any orientation. A
/// file's EXIF orientation (as MediaPipe reads it: ``VisionImage`` decodes files for `.mediapipe` as
/// `Image.create_from_file` does) is applied as `create_from_file` applies it (pixels turned upright, then
/// sampled); any other orientation (camera frames, an overridden one) as MediaPipe's
/// `ImageProcessingOptions(rotation_degrees:)` turns the region of interest. float32
/// inputs get MediaPipe's `pixel × scale + offset`, where the range `[(0 − mean) / std, (255 − mean) / std]`
/// gives `scale = (max − min) / 255` and `offset = min`.
enum MediaPipeInputWriter {
    /// Fills `tensor` with the `region` of `image`'s stored pixels, upright, sampled to `input`.
    static func write(
        _ image: OrientedImage, region: PixelRect, as input: ModelInput,
        into tensor: UnsafeMutableRawBufferPointer, session: InferenceSession
    ) {
        let pixels = image.pixels
        precondition(region.isInside(width: pixels.width, height: pixels.height), "region outside the image")
        let byteCount = input.width * input.height * 3
        precondition(tensor.count >= byteCount * (input.normalization == nil ? 1 : 4), "input tensor too small")
        let plan = self.plan(for: image, region: region, input: input, session: session)
        let start = region.y * pixels.bytesPerRow + region.x * pixels.format.bytesPerPixel
        guard let normalization = input.normalization else {
            pixels.pixels.withUnsafeBytes { stored in
                WarpSampler.sample(
                    stored.baseAddress! + start, format: pixels.format, plan: plan, into: tensor.baseAddress!)
            }
            return
        }
        if session.resized.count != byteCount { session.resized = [UInt8](repeating: 0, count: byteCount) }
        session.resized.withUnsafeMutableBytes { sampled in
            pixels.pixels.withUnsafeBytes { stored in
                WarpSampler.sample(
                    stored.baseAddress! + start, format: pixels.format, plan: plan, into: sampled.baseAddress!)
            }
        }
        session.resized.withUnsafeBufferPointer { sampled in
            scale(
                sampled, normalization: normalization,
                into: tensor.baseAddress!.assumingMemoryBound(to: Float.self))
        }
    }

    /// The session's sampling tables for this image, region and input, made again only when they change.
    private static func plan(
        for image: OrientedImage, region: PixelRect, input: ModelInput, session: InferenceSession
    ) -> WarpPlan {
        let pixels = image.pixels
        let mapping: WarpPlan.Mapping = image.orientationIsFromFile ? .uprightPixels : .rotatedRectangle
        if let cached = session.cachedWarpPlan,
            cached.matches(
                sourceWidth: region.width, sourceHeight: region.height, bytesPerRow: pixels.bytesPerRow,
                bytesPerPixel: pixels.format.bytesPerPixel, orientation: image.orientation, mapping: mapping,
                width: input.width, height: input.height)
        {
            return cached
        }
        let plan = WarpPlan(
            sourceWidth: region.width, sourceHeight: region.height, bytesPerRow: pixels.bytesPerRow,
            bytesPerPixel: pixels.format.bytesPerPixel, orientation: image.orientation, mapping: mapping,
            width: input.width, height: input.height)
        session.cachedWarpPlan = plan
        return plan
    }

    /// MediaPipe's float conversion of RGB bytes: `value × scale + offset` per channel, the product and the sum
    /// each rounded to float (no fused multiply-add), as OpenCV's `convertTo` does.
    static func scale(
        _ pixels: UnsafeBufferPointer<UInt8>, normalization: ModelInput.Normalization,
        into output: UnsafeMutablePointer<Float>
    ) {
        let low = (0 - normalization.mean) / normalization.std
        let high = (255 - normalization.mean) / normalization.std
        let factor = (high - low) / 255
        for index in 0..<pixels.count {
            let channel = index % 3
            let product = Float(pixels[index]) * factor[channel]
            output[index] = product + low[channel]
        }
    }
}
