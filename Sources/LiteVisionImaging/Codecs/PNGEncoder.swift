import CPNG

/// Encodes images as PNG with libpng's simplified API: lossless, for fixtures and debug output.
package enum PNGEncoder {
    /// Encodes an 8-bit image as PNG.
    ///
    /// RGB8 is written as RGB, RGBA8 and BGRA8 as RGBA (with their alpha), Gray8 as grayscale.
    /// Rows may be padded (`bytesPerRow` is honoured). Returns the PNG file bytes.
    package static func encode(_ image: ImageBuffer) throws(ImageEncodingError) -> [UInt8] {
        var png = png_image()
        png.version = UInt32(PNG_IMAGE_VERSION)
        png.width = UInt32(image.width)
        png.height = UInt32(image.height)
        switch image.format {
        case .rgb8: png.format = UInt32(PNG_FORMAT_FLAG_COLOR)
        case .rgba8: png.format = UInt32(PNG_FORMAT_FLAG_COLOR | PNG_FORMAT_FLAG_ALPHA)
        case .bgra8: png.format = UInt32(PNG_FORMAT_FLAG_COLOR | PNG_FORMAT_FLAG_ALPHA | PNG_FORMAT_FLAG_BGR)
        case .gray8: png.format = UInt32(PNG_FORMAT_GRAY)
        }
        guard image.width <= 0x7FFF_FFFF, image.height <= 0x7FFF_FFFF, image.bytesPerRow <= Int(Int32.max) else {
            throw .invalidSize(width: image.width, height: image.height, reason: "too large for PNG")
        }
        // Worst case of zlib's stored blocks plus PNG chunk overhead; grown and retried if ever short.
        let raw = (image.width * image.format.bytesPerPixel + 1) * image.height
        var capacity = raw + raw / 8 + raw / 64 + 12 * (raw / 8192 + 1) + 1024
        for _ in 0..<2 {
            var size = capacity
            var succeeded = false
            let output = image.pixels.withUnsafeBytes { source in
                [UInt8](unsafeUninitializedCapacity: capacity) { buffer, initialized in
                    succeeded =
                        png_image_write_to_memory(
                            &png, buffer.baseAddress, &size, 0,
                            source.baseAddress, Int32(image.bytesPerRow), nil) != 0
                    initialized = succeeded ? size : 0
                }
            }
            if succeeded { return output }
            guard size > capacity else { break }  // a real failure, not a short buffer
            capacity = size
        }
        let message = withUnsafeBytes(of: &png.message) { raw in
            String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
        png_image_free(&png)
        throw .encoderFailed("libpng: \(message.isEmpty ? "unknown error" : message)")
    }
}
