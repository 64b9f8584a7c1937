/// An axis-aligned rectangle in pixels of an image (origin at the top-left corner, y down), as ML Kit's
/// `CGRect` frames.
///
/// It speaks `CGRect`'s vocabulary, so that overlay code written for ML Kit compiles: ``origin`` and ``size``,
/// ``minX``, ``midX``, ``maxX`` (and their `Y` forms), ``isEmpty``, ``isNull``, ``standardized``,
/// ``intersection(_:)`` and `contains` of a point or a rectangle, with `CGRect`'s rules (a negative width or
/// height counts from the other edge; rectangles that do not meet intersect in ``null``). The coordinates are
/// `Double`, which Swift converts to `CGFloat` where code needs one (`frame.origin.x / width` with a `CGFloat`
/// width is a `CGFloat`). Where Foundation is imported, `import LiteVisionModelManager` adds `CGRect(frame)`.
/// Frames LiteVision makes always have a non-negative width and height.
public struct BoundingBox: Sendable, Hashable, Codable, CustomStringConvertible {
    /// Left edge (the right one when ``width`` is negative).
    public var x: Double
    /// Top edge (the bottom one when ``height`` is negative).
    public var y: Double
    /// Width, as stored: non-negative in every frame LiteVision makes. (`CGRect.width` is never negative; use
    /// ``standardized`` first for a rectangle of your own that may have a negative width.)
    public var width: Double
    /// Height, as stored (see ``width``).
    public var height: Double

    /// A point in pixels: `CGPoint`'s `x` and `y`.
    public struct Point: Sendable, Hashable, Codable {
        /// Horizontal coordinate.
        public var x: Double
        /// Vertical coordinate (down).
        public var y: Double

        /// A point from its coordinates.
        public init(x: Double, y: Double) {
            self.x = x
            self.y = y
        }
    }

    /// A size in pixels: `CGSize`'s `width` and `height`.
    public struct Size: Sendable, Hashable, Codable {
        /// Horizontal extent.
        public var width: Double
        /// Vertical extent.
        public var height: Double

        /// A size from its extents.
        public init(width: Double, height: Double) {
            self.width = width
            self.height = height
        }
    }

    /// A rectangle from its top-left corner and size.
    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    /// A rectangle from its top-left corner and size, as `CGRect(origin:size:)`.
    public init(origin: Point, size: Size) {
        self.init(x: origin.x, y: origin.y, width: size.width, height: size.height)
    }

    /// The rectangle `CGRect.null` stands for: the intersection of rectangles that do not meet. Its origin is
    /// infinite and its size zero, as `CGRect.null`'s.
    public static let null = BoundingBox(x: .infinity, y: .infinity, width: 0, height: 0)

    /// The corner at ``x``, ``y``, as `CGRect.origin`.
    public var origin: Point {
        get { Point(x: x, y: y) }
        set {
            x = newValue.x
            y = newValue.y
        }
    }

    /// The ``width`` and ``height``, as `CGRect.size`.
    public var size: Size {
        get { Size(width: width, height: height) }
        set {
            width = newValue.width
            height = newValue.height
        }
    }

    /// Left edge: ``x``, or `x + width` when the width is negative (as `CGRect.minX`).
    public var minX: Double { x + min(width, 0) }
    /// Top edge: ``y``, or `y + height` when the height is negative (as `CGRect.minY`).
    public var minY: Double { y + min(height, 0) }
    /// Right edge: `x + width`, or ``x`` when the width is negative (as `CGRect.maxX`).
    public var maxX: Double { x + max(width, 0) }
    /// Bottom edge: `y + height`, or ``y`` when the height is negative (as `CGRect.maxY`).
    public var maxY: Double { y + max(height, 0) }
    /// Center x (`x + width / 2`, whatever the sign of the width).
    public var midX: Double { x + width / 2 }
    /// Center y (`y + height / 2`, whatever the sign of the height).
    public var midY: Double { y + height / 2 }
    /// Area (0 for an empty rectangle).
    public var area: Double { max(0, width) * max(0, height) }

    /// Whether this is ``null`` (its ``x`` or ``y`` is `+infinity`), as `CGRect.isNull`.
    public var isNull: Bool { x == .infinity || y == .infinity }

    /// Whether the rectangle has no area: ``null``, or a zero width or height (as `CGRect.isEmpty`).
    public var isEmpty: Bool { isNull || width == 0 || height == 0 }

    /// The same rectangle with a non-negative width and height (the origin moved to the top-left corner), as
    /// `CGRect.standardized`; ``null`` stays null.
    public var standardized: BoundingBox {
        if isNull { return .null }
        return BoundingBox(x: minX, y: minY, width: abs(width), height: abs(height))
    }

    /// The overlap of two rectangles, as `CGRect.intersection(_:)`: ``null`` when they do not meet (test it with
    /// ``isNull``; its ``area`` is 0), a rectangle of zero width or height when they only touch. Both are
    /// standardized first, so the result has a non-negative size.
    public func intersection(_ other: BoundingBox) -> BoundingBox {
        if isNull || other.isNull { return .null }
        let left = max(minX, other.minX), top = max(minY, other.minY)
        let right = min(maxX, other.maxX), bottom = min(maxY, other.maxY)
        guard left <= right, top <= bottom else { return .null }
        return BoundingBox(x: left, y: top, width: right - left, height: bottom - top)
    }

    /// The smallest rectangle containing both, as `CGRect.union(_:)`: with a ``null`` rectangle, the other one as it
    /// is (the union of two is null); else both are standardized first, so the result has a non-negative size.
    public func union(_ other: BoundingBox) -> BoundingBox {
        if isNull { return other }
        if other.isNull { return self }
        let left = min(minX, other.minX), top = min(minY, other.minY)
        let right = max(maxX, other.maxX), bottom = max(maxY, other.maxY)
        return BoundingBox(x: left, y: top, width: right - left, height: bottom - top)
    }

    /// Whether `point` is inside, as `CGRect.contains(_:)`: from the left and top edges included to the right
    /// and bottom edges excluded; never in an empty rectangle.
    public func contains(_ point: Point) -> Bool {
        if isEmpty { return false }
        return (minX..<maxX).contains(point.x) && (minY..<maxY).contains(point.y)
    }

    /// Whether `other` lies entirely inside this rectangle (edges included), as `CGRect.contains(_:)`: ``null``
    /// is inside every rectangle, and a null rectangle contains nothing else.
    public func contains(_ other: BoundingBox) -> Bool {
        if other.isNull { return true }
        if isNull { return false }
        return other.minX >= minX && other.maxX <= maxX && other.minY >= minY && other.maxY <= maxY
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
