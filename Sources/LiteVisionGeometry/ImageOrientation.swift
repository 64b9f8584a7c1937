/// How the stored pixels of an image must be turned to show the picture upright.
///
/// The eight cases and their meaning are those of `UIImage.Orientation` (and of ML Kit's
/// `VisionImage.orientation`): `.right` means the stored pixels must be rotated 90° clockwise to be
/// upright, which is what EXIF orientation 6 says. Results are always given in the coordinates of the
/// upright image.
public enum ImageOrientation: Int, Sendable, CaseIterable, CustomStringConvertible {
    /// The stored pixels are already upright (EXIF 1).
    case up = 0
    /// Rotated 180° (EXIF 3).
    case down = 1
    /// Rotate 90° counter-clockwise to show upright (EXIF 8).
    case left = 2
    /// Rotate 90° clockwise to show upright (EXIF 6).
    case right = 3
    /// Mirrored left-to-right (EXIF 2).
    case upMirrored = 4
    /// Mirrored top-to-bottom, that is rotated 180° and mirrored (EXIF 4).
    case downMirrored = 5
    /// Mirrored, then rotated 90° counter-clockwise (EXIF 5: transposed).
    case leftMirrored = 6
    /// Mirrored, then rotated 90° clockwise (EXIF 7: transversed).
    case rightMirrored = 7

    /// The orientation an EXIF `Orientation` tag value (1...8) stands for; `nil` for other values.
    public init?(exifValue: Int) {
        switch exifValue {
        case 1: self = .up
        case 2: self = .upMirrored
        case 3: self = .down
        case 4: self = .downMirrored
        case 5: self = .leftMirrored
        case 6: self = .right
        case 7: self = .rightMirrored
        case 8: self = .left
        default: return nil
        }
    }

    /// The EXIF `Orientation` tag value (1...8) of this orientation.
    public var exifValue: Int {
        switch self {
        case .up: 1
        case .upMirrored: 2
        case .down: 3
        case .downMirrored: 4
        case .leftMirrored: 5
        case .right: 6
        case .rightMirrored: 7
        case .left: 8
        }
    }

    /// Whether showing the image upright swaps its width and height (the four 90° cases).
    public var swapsDimensions: Bool {
        switch self {
        case .left, .right, .leftMirrored, .rightMirrored: true
        case .up, .down, .upMirrored, .downMirrored: false
        }
    }

    public var description: String {
        switch self {
        case .up: "up"
        case .down: "down"
        case .left: "left"
        case .right: "right"
        case .upMirrored: "upMirrored"
        case .downMirrored: "downMirrored"
        case .leftMirrored: "leftMirrored"
        case .rightMirrored: "rightMirrored"
        }
    }
}
