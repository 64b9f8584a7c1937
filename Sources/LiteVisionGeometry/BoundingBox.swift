/// An axis-aligned rectangle in pixels of an image (origin at the top-left corner, y down), as ML Kit's
/// `CGRect` frames.
public struct BoundingBox: Sendable, Hashable, Codable, CustomStringConvertible {
    /// Left edge.
    public var x: Double
    /// Top edge.
    public var y: Double
    /// Width (non-negative).
    public var width: Double
    /// Height (non-negative).
    public var height: Double

    /// A rectangle from its top-left corner and size.
    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    /// Right edge (`x + width`).
    public var maxX: Double { x + width }
    /// Bottom edge (`y + height`).
    public var maxY: Double { y + height }
    /// Center x.
    public var midX: Double { x + width / 2 }
    /// Center y.
    public var midY: Double { y + height / 2 }
    /// Area (0 for an empty rectangle).
    public var area: Double { max(0, width) * max(0, height) }

    /// The overlap of two rectangles (empty, with zero size, when they do not overlap).
    public func intersection(_ other: BoundingBox) -> BoundingBox {
        let left = max(x, other.x), top = max(y, other.y)
        let right = min(maxX, other.maxX), bottom = min(maxY, other.maxY)
        return BoundingBox(x: left, y: top, width: max(0, right - left), height: max(0, bottom - top))
    }

    /// Intersection over union, 0...1.
    public func iou(_ other: BoundingBox) -> Double {
        let overlap = intersection(other).area
        let union = area + other.area - overlap
        return union > 0 ? overlap / union : 0
    }

    /// This rectangle limited to `0..<width, 0..<height`.
    public func clamped(width imageWidth: Double, height imageHeight: Double) -> BoundingBox {
        let left = min(max(x, 0), imageWidth), top = min(max(y, 0), imageHeight)
        let right = min(max(maxX, 0), imageWidth), bottom = min(max(maxY, 0), imageHeight)
        return BoundingBox(x: left, y: top, width: right - left, height: bottom - top)
    }

    public var description: String {
        "(\(x), \(y), \(width)x\(height))"
    }
}
