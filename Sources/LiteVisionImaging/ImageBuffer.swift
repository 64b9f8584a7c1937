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
