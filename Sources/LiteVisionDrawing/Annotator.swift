import LiteVisionImaging

/// Draws detection results over images with Cairo: a box outline per annotation and a caption above it.
///
/// Each box is outlined in the color of its tracking ID (the same ID gets the same color in every frame),
/// or of its position in the list when it has no ID (see ``AnnotationPalette``), with a line that scales
/// with the image (see ``AnnotationStyle``) and lies just inside the box. The caption, `"#id"` and the
/// first label (see ``Annotation/caption``), is written on a background of the box color on top of the
/// box, or inside its top edge when the box touches the top of the image; it always stays in the image.
/// Boxes partly outside the image are outlined where they are visible; boxes entirely outside, empty or
/// with non-finite coordinates are skipped.
///
/// Every call has its own Cairo surface: calls from several threads at once are safe.
///
/// ```swift
/// let annotated = Annotator.draw([Annotation(box: frame, trackingID: 3, labels: ["Food 0.83"])], on: photo)
/// let png = try PNGEncoder.encode(annotated)
/// ```
package enum Annotator {
    /// Draws `annotations` on a copy of `image` and returns it as an RGB8 image of the same size.
    ///
    /// Accepts RGB8, RGBA8 and BGRA8 images (alpha is ignored) and Gray8 ones (drawn in color). With no
    /// annotations the result has exactly the pixels of `image`.
    package static func draw(_ annotations: [Annotation], on image: ImageBuffer) -> ImageBuffer {
        var output = ImageBuffer(width: image.width, height: image.height, format: .rgb8)
        guard let stride = CairoPixelLayout.stride(width: image.width) else {
            copyUndrawn(image, into: &output)
            return output
        }
        var surface = [UInt8](repeating: 0, count: stride * image.height)
        surface.withUnsafeMutableBytes { bytes in
            CairoPixelLayout.load(image, into: bytes, stride: stride)
            if !annotations.isEmpty {
                _ = CairoCanvas.draw(
                    into: bytes, width: image.width, height: image.height, stride: stride,
                    format: CairoPixelLayout.format
                ) { canvas in
                    AnnotationRenderer.render(annotations, on: canvas, width: image.width, height: image.height)
                }
            }
        }
        surface.withUnsafeBytes { CairoPixelLayout.store($0, stride: stride, into: &output) }
        return output
    }

    /// Draws `annotations` into `image` itself, keeping its size and format.
    ///
    /// A BGRA8 image (the usual camera and video frame layout) is Cairo's own pixel layout on little-endian
    /// machines, so Cairo draws straight into its bytes, without any copy: the way to annotate video frames.
    /// Images in other formats (or BGRA8 rows not a multiple of 4 bytes apart) are drawn through a copy
    /// and written back in their own format, with the same result. Alpha is not blended: pixels drawn on
    /// get alpha 255 (opaque), the others keep theirs; row padding is never touched.
    package static func drawInPlace(_ annotations: [Annotation], on image: inout ImageBuffer) {
        guard !annotations.isEmpty else { return }
        let (width, height) = (image.width, image.height)
        if CairoPixelLayout.canDrawInPlace(image) {
            let stride = image.bytesPerRow
            let drawn = image.pixels.withUnsafeMutableBytes { bytes in
                CairoCanvas.draw(
                    into: bytes, width: width, height: height, stride: stride,
                    format: CairoPixelLayout.format
                ) { canvas in
                    AnnotationRenderer.render(annotations, on: canvas, width: width, height: height)
                }
            }
            if drawn { return }
        }
        guard let stride = CairoPixelLayout.stride(width: width) else { return }
        var surface = [UInt8](repeating: 0, count: stride * height)
        surface.withUnsafeMutableBytes { bytes in
            CairoPixelLayout.load(image, into: bytes, stride: stride)
            _ = CairoCanvas.draw(
                into: bytes, width: width, height: height, stride: stride,
                format: CairoPixelLayout.format
            ) { canvas in
                AnnotationRenderer.render(annotations, on: canvas, width: width, height: height)
            }
        }
        surface.withUnsafeBytes { CairoPixelLayout.store($0, stride: stride, into: &image) }
    }

    /// The image's pixels as RGB8, for the (theoretical) widths Cairo refuses.
    private static func copyUndrawn(_ image: ImageBuffer, into output: inout ImageBuffer) {
        let stride = image.width * 4
        var surface = [UInt8](repeating: 0, count: stride * image.height)
        surface.withUnsafeMutableBytes { CairoPixelLayout.load(image, into: $0, stride: stride) }
        surface.withUnsafeBytes { CairoPixelLayout.store($0, stride: stride, into: &output) }
    }
}
