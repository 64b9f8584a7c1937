/// A rectangle of whole pixels: columns `x..<x + width`, rows `y..<y + height`.
///
/// The integer counterpart of ``BoundingBox``: the region of stored pixels a crop reads, the pixels a drawn
/// box covers.
package struct PixelRect: Sendable, Hashable {
    package var x: Int
    package var y: Int
    package var width: Int
    package var height: Int

    package init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    /// One column past the right edge (`x + width`).
    package var maxX: Int { x + width }
    /// One row past the bottom edge (`y + height`).
    package var maxY: Int { y + height }

    /// Whether the rectangle is non-empty and lies inside a `width`×`height` image.
    package func isInside(width imageWidth: Int, height imageHeight: Int) -> Bool {
        x >= 0 && y >= 0 && width > 0 && height > 0 && maxX <= imageWidth && maxY <= imageHeight
    }

    /// How a box's edges are brought onto the pixel grid.
    package enum Rounding: Sendable {
        /// Each edge to the nearest pixel boundary: the pixels a drawn box covers.
        case nearest
        /// Left and top edges down, right and bottom edges up: every pixel the box touches (a crop).
        case outward
    }

    /// The pixels `box` covers inside a `width`×`height` image, or nil when the box is not finite or nothing
    /// of it is inside the image.
    package init?(_ box: BoundingBox, rounding: Rounding, imageWidth: Int, imageHeight: Int) {
        guard box.x.isFinite, box.y.isFinite, box.width.isFinite, box.height.isFinite,
            box.width > 0, box.height > 0
        else { return nil }
        func grid(_ value: Double, _ rule: FloatingPointRoundingRule, _ limit: Int) -> Int {
            Int(min(max(value.rounded(rule), 0), Double(limit)))
        }
        let low: FloatingPointRoundingRule = rounding == .nearest ? .toNearestOrAwayFromZero : .down
        let high: FloatingPointRoundingRule = rounding == .nearest ? .toNearestOrAwayFromZero : .up
        let left = grid(box.x, low, imageWidth), top = grid(box.y, low, imageHeight)
        let right = grid(box.maxX, high, imageWidth), bottom = grid(box.maxY, high, imageHeight)
        guard right > left, bottom > top else { return nil }
        self.init(x: left, y: top, width: right - left, height: bottom - top)
    }
}
