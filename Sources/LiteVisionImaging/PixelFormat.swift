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
