/// Why an image could not be decoded. Each message names the file kind, what is wrong and, where
/// there is one, the limit that was hit, so it can be shown to a user as is.
public enum ImageDecodingError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The data has zero bytes.
    case empty
    /// The data is neither JPEG nor PNG. The value says what it looks like instead, for example
    /// `"GIF"`, `"WebP"`, `"text"` or `"unknown (starts with 00 01 02 03)"`.
    case unsupportedFormat(String)
    /// The data ends before the image is complete. The value names the file kind and the detail.
    case truncated(String)
    /// The decoder found the data invalid. The value names the file kind and includes the message
    /// of libjpeg-turbo, libpng or stb_image (the decoder of `.mediapipe` preprocessing).
    case corrupt(String)
    /// The header declares more pixels than the decoder's limit (100 megapixels by default).
    /// This is detected from the header alone, before any pixel memory is allocated.
    case tooLarge(width: Int, height: Int, limit: Int)
    /// The header declares a zero (or otherwise impossible) width or height.
    case invalidDimensions(width: Int, height: Int)
    /// A file could not be opened or read. The value is the path and the system's reason.
    case fileNotReadable(path: String, reason: String)

    /// A message for people: what is wrong, and what to do about it.
    public var description: String {
        switch self {
        case .empty:
            return "The image data is empty (0 bytes)."
        case .unsupportedFormat(let kind):
            return "Unsupported image format: the data looks like \(kind). Only JPEG and PNG images can be "
                + "decoded; convert the image to one of them first."
        case .truncated(let detail):
            return "Truncated image: \(detail). The file is incomplete; check that it was fully "
                + "downloaded or written."
        case .corrupt(let detail):
            return "Corrupt image: \(detail)."
        case .tooLarge(let width, let height, let limit):
            return "Image too large: its header declares \(width)x\(height) = \(width * height) pixels, "
                + "more than the limit of \(limit) pixels. Downscale the image first."
        case .invalidDimensions(let width, let height):
            return "Invalid image: its header declares a size of \(width)x\(height) pixels; "
                + "width and height must both be at least 1."
        case .fileNotReadable(let path, let reason):
            return "Cannot read image file \(path): \(reason)."
        }
    }
}
