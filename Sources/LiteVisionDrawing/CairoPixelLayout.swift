import CCairo
import LiteVisionImaging

/// Moves pixels between ``ImageBuffer`` formats and Cairo's `CAIRO_FORMAT_RGB24` layout: one native-endian
/// 32-bit word per pixel, `0xXXRRGGBB` (bytes B, G, R, X in memory on little-endian machines), rows
/// `cairo_format_stride_for_width` bytes apart. The conversions are exact: a round trip changes nothing.
///
/// The top byte, which Cairo neither reads nor blends, carries the alpha of RGBA8/BGRA8 images through the
/// drawing: Cairo sets it to 0xFF on every pixel it draws on, so drawn pixels come back opaque and the
/// others keep their alpha, exactly as when Cairo draws straight into a BGRA8 frame.
enum CairoPixelLayout {
    /// The Cairo format the copies use: opaque RGB, the unused top byte ignored by Cairo.
    static let format = CAIRO_FORMAT_RGB24

    /// The row stride Cairo requires for `width` pixels, or nil when Cairo refuses the width.
    static func stride(width: Int) -> Int? {
        guard width > 0, width <= Int(Int32.max) else { return nil }
        let stride = Int(cairo_format_stride_for_width(format, Int32(width)))
        return stride > 0 ? stride : nil
    }

    /// Whether `image` already is in Cairo's layout, so Cairo can draw straight into its bytes: BGRA8 on a
    /// little-endian machine (the word `0xAARRGGBB`), with rows a multiple of 4 bytes apart.
    static func canDrawInPlace(_ image: ImageBuffer) -> Bool {
        image.format == .bgra8 && UInt32(1).littleEndian == 1 && image.bytesPerRow % 4 == 0
            && image.bytesPerRow >= (stride(width: image.width) ?? .max)
    }

    /// Writes `image` into `surface` (at least `stride * image.height` bytes), in Cairo's layout.
    static func load(_ image: ImageBuffer, into surface: UnsafeMutableRawBufferPointer, stride: Int) {
        let bpp = image.format.bytesPerPixel
        // Byte offsets of red, green, blue and alpha within one pixel of the source (nil: no alpha).
        let (r, g, b, a): (Int, Int, Int, Int?) =
            switch image.format {
            case .rgb8: (0, 1, 2, nil)
            case .rgba8: (0, 1, 2, 3)
            case .bgra8: (2, 1, 0, 3)
            case .gray8: (0, 0, 0, nil)
            }
        image.pixels.withUnsafeBytes { source in
            for row in 0..<image.height {
                var input = row * image.bytesPerRow
                var output = row * stride
                for _ in 0..<image.width {
                    let alpha: UInt32 = if let a { UInt32(source[input + a]) } else { 0xFF }
                    let word =
                        alpha << 24 | UInt32(source[input + r]) << 16
                        | UInt32(source[input + g]) << 8 | UInt32(source[input + b])
                    surface.storeBytes(of: word, toByteOffset: output, as: UInt32.self)
                    input += bpp
                    output += 4
                }
            }
        }
    }

    /// Writes Cairo's pixels back into `image`, in the image's own format and row stride. RGBA8/BGRA8
    /// images get the top byte as alpha; the padding at the end of rows is left as it was; a gray image
    /// gets the luminance of the drawing (ITU-R BT.601 weights).
    static func store(_ surface: UnsafeRawBufferPointer, stride: Int, into image: inout ImageBuffer) {
        let (width, height, bytesPerRow, format) = (image.width, image.height, image.bytesPerRow, image.format)
        let bpp = format.bytesPerPixel
        image.pixels.withUnsafeMutableBytes { target in
            for row in 0..<height {
                var input = row * stride
                var output = row * bytesPerRow
                for _ in 0..<width {
                    let word = surface.load(fromByteOffset: input, as: UInt32.self)
                    let red = UInt8(truncatingIfNeeded: word >> 16)
                    let green = UInt8(truncatingIfNeeded: word >> 8)
                    let blue = UInt8(truncatingIfNeeded: word)
                    switch format {
                    case .rgb8:
                        target[output] = red; target[output + 1] = green; target[output + 2] = blue
                    case .rgba8:
                        target[output] = red; target[output + 1] = green; target[output + 2] = blue
                        target[output + 3] = UInt8(truncatingIfNeeded: word >> 24)
                    case .bgra8:
                        target[output] = blue; target[output + 1] = green; target[output + 2] = red
                        target[output + 3] = UInt8(truncatingIfNeeded: word >> 24)
                    case .gray8:
                        let luma = 299 * Int(red) + 587 * Int(green) + 114 * Int(blue)
                        target[output] = UInt8((luma + 500) / 1000)
                    }
                    input += 4
                    output += bpp
                }
            }
        }
    }
}
