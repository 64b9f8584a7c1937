import CPNG

/// PNG decoding with libpng's simplified API (`png_image_*`).
///
/// libpng reports errors with `longjmp`, which must never cross Swift frames; the simplified API
/// catches them inside libpng and returns a status and a message instead, so it is the only part
/// of libpng used here. It handles every colour type, bit depth, palette, transparency and
/// interlacing. Conversions: gray becomes RGB, alpha (including palette transparency) is dropped
/// without compositing — ML Kit ignores alpha, and Pillow's `convert("RGB")` does the same —
/// and 16-bit samples are rounded to 8 bits as sRGB-encoded values (Pillow truncates them instead:
/// at most 1 apart). 8-bit files are passed through unchanged unless a `gAMA` chunk declares a
/// gamma far from sRGB's, which libpng then converts to sRGB (Pillow does not).
enum LibPNGDecoder {
    /// The declared width and height, read from IHDR without libpng.
    static func readHeader(_ bytes: ByteView) throws(ImageDecodingError) -> (width: Int, height: Int) {
        guard let size = PNGChunkScanner.headerSize(in: bytes) else {
            if bytes.count < 33 {
                throw .truncated("PNG data ends inside its header, after \(bytes.count) bytes")
            }
            throw .corrupt("PNG header is invalid: the file does not start with a 13-byte IHDR chunk")
        }
        let width = Int(size.width), height = Int(size.height)
        guard width > 0, height > 0 else { throw .invalidDimensions(width: width, height: height) }
        guard width <= 0x7FFF_FFFF, height <= 0x7FFF_FFFF else {
            throw .corrupt("PNG header is invalid: \(width)x\(height) exceeds the PNG limit of 2^31-1 per side")
        }
        return (width, height)
    }

    /// Decodes the image to tightly packed RGB8. The caller has checked the declared size.
    ///
    /// libpng's CRC policy is kept: a CRC error in a critical chunk (IHDR, PLTE, IDAT) is an error, one in an
    /// ancillary chunk (tEXt, gAMA, ...) a warning, the chunk being ignored. Strict decoding
    /// (`allowsDamage == false`) also requires the IEND chunk libpng does not read: a file without it is
    /// truncated, one with a wrong IEND CRC corrupt. Lenient decoding accepts both, with a warning.
    static func decodeRGB(
        _ bytes: ByteView, allowsDamage: Bool = false
    ) throws(ImageDecodingError) -> (ImageBuffer, warning: String?) {
        var image = png_image()
        image.version = UInt32(PNG_IMAGE_VERSION)
        defer { png_image_free(&image) }
        guard png_image_begin_read_from_memory(&image, bytes.bytes.baseAddress, bytes.count) != 0 else {
            throw error(from: &image)
        }
        let width = Int(image.width), height = Int(image.height)
        let hasAlpha = image.format & UInt32(PNG_FORMAT_FLAG_ALPHA) != 0
        let channels = hasAlpha ? 4 : 3
        image.format = UInt32(PNG_FORMAT_FLAG_COLOR) | (hasAlpha ? UInt32(PNG_FORMAT_FLAG_ALPHA) : 0)
        // 16-bit files without gAMA/sRGB are sRGB-encoded in practice (and Pillow reads them so);
        // without this flag libpng would treat them as linear and brighten them.
        image.flags |= UInt32(PNG_IMAGE_FLAG_16BIT_sRGB)
        guard width * channels <= Int(Int32.max) else {
            throw .corrupt("PNG image is \(width) pixels wide, too wide for libpng's row stride")
        }
        var failure: ImageDecodingError?
        var pixels = [UInt8](unsafeUninitializedCapacity: width * height * channels) { buffer, initialized in
            if png_image_finish_read(&image, nil, buffer.baseAddress, Int32(width * channels), nil) != 0 {
                initialized = buffer.count
            } else {
                failure = error(from: &image)
                initialized = 0
            }
        }
        if let failure { throw failure }
        var warning = image.warning_or_error & 3 == 1 ? message(of: &image) : nil
        switch PNGChunkScanner.ending(of: bytes) {
        case .intact: break
        case .missing:
            let detail = "PNG data ends after the image data, without its IEND chunk"
            guard allowsDamage else { throw .truncated(detail) }
            warning = warning ?? detail
        case .damaged:
            let detail = "PNG data is invalid: its IEND chunk has a wrong CRC or length"
            guard allowsDamage else { throw .corrupt(detail) }
            warning = warning ?? detail
        }
        if hasAlpha { dropAlphaInPlace(&pixels, pixelCount: width * height) }
        return (ImageBuffer(width: width, height: height, format: .rgb8, pixels: pixels), warning)
    }

    /// RGBA to RGB in place, then shortens the array; the write position never overtakes the read one.
    static func dropAlphaInPlace(_ pixels: inout [UInt8], pixelCount: Int) {
        pixels.withUnsafeMutableBufferPointer { buffer in
            for i in 0..<pixelCount {
                let source = i * 4, target = i * 3
                buffer[target] = buffer[source]
                buffer[target + 1] = buffer[source + 1]
                buffer[target + 2] = buffer[source + 2]
            }
        }
        pixels.removeLast(pixels.count - pixelCount * 3)
    }

    /// The decoding error for libpng's message: running out of data means a truncated file.
    private static func error(from image: inout png_image) -> ImageDecodingError {
        let text = message(of: &image)
        if text.contains("beyond end of data") || text.contains("Not enough image data")
            || text.contains("unexpected end")
        {
            return .truncated("PNG data ends before the image is complete (libpng: \(text))")
        }
        return .corrupt("PNG data is invalid (libpng: \(text))")
    }

    /// The NUL-terminated message libpng left in `image.message`.
    private static func message(of image: inout png_image) -> String {
        withUnsafeBytes(of: &image.message) { raw in
            let text = raw.prefix { $0 != 0 }
            return text.isEmpty ? "unknown error" : String(decoding: text, as: UTF8.self)
        }
    }
}
