import LiteVisionGeometry
import LiteVisionImaging

/// Turns an image (or a region of it) into a model's input tensor: the preprocessing of every image, frame
/// and object crop.
///
/// The whole image (or region) is resized to the model input with antialiased bilinear filtering (Pillow's
/// `BILINEAR`, the convention of the reference outputs), aspect ratio not kept, as ML Kit does. To keep
/// rotated images cheap, the stored pixels are resized first (to the input size turned by the orientation)
/// and only the small result is turned upright; for images stored turned by 90° (EXIF 5–8) the two resize
/// passes run in the upright image's order, so every orientation gives the bytes of resizing the upright
/// image. A region is read in place (no copy of the crop). uint8 models
/// get the bytes as they are; float32 models get `(value - mean) / std` with the metadata's NormalizationOptions.
enum InputWriter {
    /// Fills `tensor` with the `region` of `image`'s stored pixels, resized to `input` and turned upright.
    static func write(
        _ image: OrientedImage, region: PixelRect, as input: ModelInput,
        into tensor: UnsafeMutableRawBufferPointer, session: InferenceSession
    ) {
        let orientation = image.orientation
        let width = input.width, height = input.height
        let stored = orientation.inverse.uprightSize(width: width, height: height)
        let byteCount = width * height * 3
        precondition(tensor.count >= byteCount * (input.normalization == nil ? 1 : 4), "input tensor too small")
        if input.normalization == nil && orientation == .up {
            resize(
                image.pixels, region: region, into: tensor.baseAddress!, width: width, height: height,
                transposed: false, session: session)
            return
        }
        if session.resized.count != byteCount { session.resized = [UInt8](repeating: 0, count: byteCount) }
        session.resized.withUnsafeMutableBytes { resized in
            resize(
                image.pixels, region: region, into: resized.baseAddress!, width: stored.width, height: stored.height,
                transposed: orientation.swapsDimensions, session: session)
        }
        guard let normalization = input.normalization else {
            session.resized.withUnsafeBytes { resized in
                Resampler.orient(
                    rgb: resized.baseAddress!, width: stored.width, height: stored.height,
                    orientation: orientation, into: tensor.baseAddress!)
            }
            return
        }
        if orientation != .up {
            if session.oriented.count != byteCount { session.oriented = [UInt8](repeating: 0, count: byteCount) }
            session.resized.withUnsafeBytes { resized in
                session.oriented.withUnsafeMutableBytes { oriented in
                    Resampler.orient(
                        rgb: resized.baseAddress!, width: stored.width, height: stored.height,
                        orientation: orientation, into: oriented.baseAddress!)
                }
            }
        }
        let upright = orientation == .up ? session.resized : session.oriented
        upright.withUnsafeBufferPointer { pixels in
            normalize(
                pixels, count: width * height, mean: normalization.mean, inverseStd: normalization.inverseStd,
                into: tensor.baseAddress!.assumingMemoryBound(to: Float.self))
        }
    }

    /// Resizes `image` (or its `region`) to `width`×`height` RGB8 at `destination`, with the passes in the
    /// upright order when the pixels are stored `transposed`, reusing the session's resize plan when the sizes
    /// repeat (every frame of a video).
    private static func resize(
        _ image: ImageBuffer, region area: PixelRect, into destination: UnsafeMutableRawPointer,
        width: Int, height: Int, transposed: Bool, session: InferenceSession
    ) {
        precondition(area.isInside(width: image.width, height: image.height), "region outside the image")
        let plan = session.plan(
            sourceWidth: area.width, sourceHeight: area.height, width: width, height: height, transposed: transposed)
        let bytesPerPixel = image.format.bytesPerPixel
        image.pixels.withUnsafeBytes { pixels in
            let start = area.y * image.bytesPerRow + area.x * bytesPerPixel
            let end = (area.y + area.height - 1) * image.bytesPerRow + (area.x + area.width) * bytesPerPixel
            Resampler.resizeBilinearAntialiased(
                pixels: UnsafeRawBufferPointer(rebasing: pixels[start..<end]),
                width: area.width, height: area.height, bytesPerRow: image.bytesPerRow,
                format: image.format, into: destination, width: width, height: height,
                plan: plan)
        }
    }

    /// `(value - mean) * (1 / std)` per channel, for `count` RGB pixels.
    static func normalize(
        _ pixels: UnsafeBufferPointer<UInt8>, count: Int, mean: SIMD3<Float>,
        inverseStd: SIMD3<Float>, into output: UnsafeMutablePointer<Float>
    ) {
        // Expand the per-channel constants over 4 pixels (12 floats) so the loop runs on whole vectors.
        let mean12 = SIMD16<Float>(
            mean.x, mean.y, mean.z, mean.x, mean.y, mean.z, mean.x, mean.y,
            mean.z, mean.x, mean.y, mean.z, 0, 0, 0, 0)
        let scale12 = SIMD16<Float>(
            inverseStd.x, inverseStd.y, inverseStd.z, inverseStd.x, inverseStd.y,
            inverseStd.z, inverseStd.x, inverseStd.y, inverseStd.z, inverseStd.x,
            inverseStd.y, inverseStd.z, 0, 0, 0, 0)
        let base = pixels.baseAddress!
        var pixel = 0
        while pixel + 4 <= count {
            let offset = pixel * 3
            var values = SIMD16<Float>()
            for lane in 0..<12 { values[lane] = Float(base[offset + lane]) }
            let result = (values - mean12) * scale12
            for lane in 0..<12 { output[offset + lane] = result[lane] }
            pixel += 4
        }
        while pixel < count {
            for channel in 0..<3 {
                let offset = pixel * 3 + channel
                output[offset] = (Float(base[offset]) - mean[channel]) * inverseStd[channel]
            }
            pixel += 1
        }
    }
}
