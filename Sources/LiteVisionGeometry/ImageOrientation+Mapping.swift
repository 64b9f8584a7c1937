/// Geometry of turning stored pixels upright: sizes, pixel and rectangle mapping.
///
/// Stored coordinates are those of the pixels as held in memory (`storedWidth`×`storedHeight`);
/// upright coordinates are those of the image after ``Resampler/orient(_:_:)``. Continuous
/// coordinates put pixel `(x, y)` on the square `[x, x+1] × [y, y+1]`.
extension ImageOrientation {
    /// The size of the upright image for stored pixels of `width`×`height`.
    package func uprightSize(width: Int, height: Int) -> (width: Int, height: Int) {
        swapsDimensions ? (height, width) : (width, height)
    }

    /// The orientation that turns the upright image back into the stored pixels.
    package var inverse: ImageOrientation {
        switch self {
        case .left: .right
        case .right: .left
        default: self
        }
    }

    /// The upright position of the continuous point `(x, y)` of the stored image.
    package func mapToUpright(x: Double, y: Double, storedWidth: Int, storedHeight: Int) -> (x: Double, y: Double) {
        let w = Double(storedWidth), h = Double(storedHeight)
        switch self {
        case .up: return (x, y)
        case .upMirrored: return (w - x, y)
        case .down: return (w - x, h - y)
        case .downMirrored: return (x, h - y)
        case .right: return (h - y, x)
        case .left: return (y, w - x)
        case .leftMirrored: return (y, x)
        case .rightMirrored: return (h - y, w - x)
        }
    }

    /// The upright rectangle covering `rect` of the stored image (same area, sides swapped for the
    /// 90° cases).
    package func mapToUpright(rect: BoundingBox, storedWidth: Int, storedHeight: Int) -> BoundingBox {
        let a = mapToUpright(x: rect.x, y: rect.y, storedWidth: storedWidth, storedHeight: storedHeight)
        let b = mapToUpright(
            x: rect.x + rect.width, y: rect.y + rect.height,
            storedWidth: storedWidth, storedHeight: storedHeight)
        return BoundingBox(x: min(a.x, b.x), y: min(a.y, b.y), width: abs(b.x - a.x), height: abs(b.y - a.y))
    }

    /// The stored-image rectangle that `rect` of the upright image covers (the inverse of
    /// ``mapToUpright(rect:storedWidth:storedHeight:)``).
    package func mapToStored(rect: BoundingBox, storedWidth: Int, storedHeight: Int) -> BoundingBox {
        let upright = uprightSize(width: storedWidth, height: storedHeight)
        return inverse.mapToUpright(rect: rect, storedWidth: upright.width, storedHeight: upright.height)
    }

    /// The stored pixel shown at upright pixel `(x, y)`.
    package func storedPixel(forUprightX x: Int, y: Int, storedWidth: Int, storedHeight: Int) -> (x: Int, y: Int) {
        let w = storedWidth, h = storedHeight
        switch self {
        case .up: return (x, y)
        case .upMirrored: return (w - 1 - x, y)
        case .down: return (w - 1 - x, h - 1 - y)
        case .downMirrored: return (x, h - 1 - y)
        case .right: return (y, h - 1 - x)
        case .left: return (w - 1 - y, x)
        case .leftMirrored: return (y, x)
        case .rightMirrored: return (w - 1 - y, h - 1 - x)
        }
    }
}
