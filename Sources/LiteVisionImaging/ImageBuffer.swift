/// The layout of the pixels in an ``ImageBuffer``: 8 bits per channel, interleaved.
public enum PixelFormat: Sendable, Equatable, CustomStringConvertible {
    /// Red, green, blue: 3 bytes per pixel. The format models take, and what the decoders produce.
    case rgb8
    /// Red, green, blue, alpha: 4 bytes per pixel (alpha is ignored).
    case rgba8
    /// Blue, green, red, alpha: 4 bytes per pixel, the usual camera frame layout (alpha is ignored).
    case bgra8
    /// One gray byte per pixel.
    case gray8

    /// Bytes taken by one pixel.
    public var bytesPerPixel: Int {
        switch self {
        case .rgb8: 3
        case .rgba8, .bgra8: 4
        case .gray8: 1
        }
    }

    public var description: String {
        switch self {
        case .rgb8: "RGB8"
        case .rgba8: "RGBA8"
        case .bgra8: "BGRA8"
        case .gray8: "Gray8"
        }
    }
}

/// An 8-bit interleaved image held in memory: the common currency of the imaging code.
///
/// Rows are `bytesPerRow` apart (at least `width * format.bytesPerPixel`). The storage is a Swift
/// array, so copies are cheap until one of them is written to.
public struct ImageBuffer: Sendable {
    /// Width in pixels.
    public let width: Int
    /// Height in pixels.
    public let height: Int
    /// How the pixels are laid out.
    public let format: PixelFormat
    /// Distance in bytes from the start of one row to the start of the next.
    public let bytesPerRow: Int
    /// The pixel bytes, `bytesPerRow * height` of them at least.
    public var pixels: [UInt8]

    /// Wraps existing pixel bytes. The sizes must be consistent: this precondition is for the library's
    /// own callers; user-supplied buffers are validated by `VisionImage`, which throws instead.
    public init(width: Int, height: Int, format: PixelFormat, bytesPerRow: Int? = nil, pixels: [UInt8]) {
        let stride = bytesPerRow ?? width * format.bytesPerPixel
        precondition(
            width > 0 && height > 0 && stride >= width * format.bytesPerPixel
                && pixels.count >= stride * (height - 1) + width * format.bytesPerPixel,
            "ImageBuffer: inconsistent sizes")
        self.width = width
        self.height = height
        self.format = format
        self.bytesPerRow = stride
        self.pixels = pixels
    }

    /// A new image of the given size, filled with zero bytes, with tightly packed rows.
    public init(width: Int, height: Int, format: PixelFormat) {
        self.init(
            width: width, height: height, format: format, bytesPerRow: nil,
            pixels: [UInt8](repeating: 0, count: width * height * format.bytesPerPixel))
    }
}
