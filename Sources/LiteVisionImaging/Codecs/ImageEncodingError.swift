/// Why an image could not be encoded.
package enum ImageEncodingError: Error, Sendable, Equatable, CustomStringConvertible {
    /// JPEG quality outside 1...100.
    case invalidQuality(Int)
    /// An EXIF orientation value outside 0...65535 (the range of the EXIF SHORT type).
    case invalidEXIFOrientation(Int)
    /// A size the format cannot store (JPEG: at most 65,535 pixels per side), or pixel data
    /// inconsistent with the size.
    case invalidSize(width: Int, height: Int, reason: String)
    /// libjpeg-turbo or libpng failed; the value holds its message.
    case encoderFailed(String)

    /// A message for people: what is wrong, and what to do about it.
    package var description: String {
        switch self {
        case .invalidQuality(let quality):
            return "Invalid JPEG quality \(quality): it must be between 1 and 100."
        case .invalidEXIFOrientation(let value):
            return "Invalid EXIF orientation \(value): it must fit in 16 bits (1...8 are meaningful)."
        case .invalidSize(let width, let height, let reason):
            return "Cannot encode a \(width)x\(height) image: \(reason)."
        case .encoderFailed(let message):
            return "Image encoding failed: \(message)."
        }
    }
}
