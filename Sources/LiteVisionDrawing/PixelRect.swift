import LiteVisionImaging

/// A rectangle on the pixel grid: columns `left..<right`, rows `top..<bottom`.
struct PixelRect: Sendable, Hashable {
    var left: Int
    var top: Int
    var right: Int
    var bottom: Int

    var width: Int { right - left }
    var height: Int { bottom - top }

    /// The pixels a box covers inside a `width` x `height` image (edges rounded to the nearest pixel
    /// boundary), or nil when the box is not finite or nothing of it is inside the image.
    init?(covering box: BoundingBox, imageWidth: Int, imageHeight: Int) {
        guard box.x.isFinite, box.y.isFinite, box.width.isFinite, box.height.isFinite,
              box.width > 0, box.height > 0 else { return nil }
        func grid(_ value: Double, _ limit: Int) -> Int {
            Int(min(max(value.rounded(), 0), Double(limit)))
        }
        left = grid(box.x, imageWidth)
        top = grid(box.y, imageHeight)
        right = grid(box.maxX, imageWidth)
        bottom = grid(box.maxY, imageHeight)
        guard right > left, bottom > top else { return nil }
    }
}
