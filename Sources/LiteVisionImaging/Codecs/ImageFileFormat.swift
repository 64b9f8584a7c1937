/// The compressed image formats the decoder understands.
package enum ImageFileFormat: String, Sendable, Equatable, CustomStringConvertible {
    /// JPEG (JFIF or EXIF; baseline, extended or progressive).
    case jpeg
    /// PNG (any bit depth and colour type, interlaced or not).
    case png

    /// The format's usual name: "JPEG" or "PNG".
    package var description: String {
        switch self {
        case .jpeg: "JPEG"
        case .png: "PNG"
        }
    }
}
