import LiteVisionGeometry

extension BoundingBox {
    /// The fraction of this box's area that lies outside `0..<width, 0..<height`: 0 inside, 1 fully outside
    /// (also 1 for an empty box).
    @inline(__always)
    func outsideFraction(imageWidth: Double, imageHeight: Double) -> Double {
        let area = self.area
        guard area > 0 else { return 1 }
        return 1 - clamped(width: imageWidth, height: imageHeight).area / area
    }

    /// Whether the box lies within a `width` × `height` image, its edges included.
    @inline(__always)
    func lies(inWidth width: Double, height: Double) -> Bool {
        x >= 0 && y >= 0 && maxX <= width && maxY <= height
    }

    /// The box as the tracker matches it in a `width` × `height` image (see
    /// ``ObjectTracker/update(_:imageWidth:imageHeight:)``): the box itself when it lies inside the image or is not
    /// finite (to be ignored), else the part of it inside the image — as a detector that clips its boxes gives it —
    /// or `nil` when that part is under a pixel wide or tall (nothing of an object a detector could see).
    package func inView(width: Double, height: Double) -> BoundingBox? {
        guard !lies(inWidth: width, height: height), x.isFinite, y.isFinite, self.width.isFinite,
            self.height.isFinite
        else { return self }
        let part = clamped(width: width, height: height)
        return part.width >= 1 && part.height >= 1 ? part : nil
    }

    /// Whether the box reaches within ``TrackRecord/borderContact`` of an edge of a `width` × `height` image (or past
    /// it): a detector's box clipped by the border, give or take rounding.
    @inline(__always)
    func touchesBorder(imageWidth: Double, imageHeight: Double) -> Bool {
        let contact = TrackRecord.borderContact
        return x <= contact || y <= contact || maxX >= imageWidth - contact || maxY >= imageHeight - contact
    }

    /// Intersection over union without building intermediate boxes (the tracker's inner loop).
    @inline(__always)
    func fastIoU(_ other: BoundingBox) -> Double {
        let iw = min(x + width, other.x + other.width) - max(x, other.x)
        let ih = min(y + height, other.y + other.height) - max(y, other.y)
        guard iw > 0, ih > 0 else { return 0 }
        let overlap = iw * ih
        let union = width * height + other.width * other.height - overlap
        return union > 0 ? overlap / union : 0
    }

    /// This box grown by `fraction` of its width on the left and on the right, and of its height on the top
    /// and at the bottom (the "buffered" box of C-BIoU tracking).
    @inline(__always)
    func expanded(by fraction: Double) -> BoundingBox { expanded(widthBy: fraction, heightBy: fraction) }

    /// This box grown by `widthFraction` of its width on the left and on the right, and by `heightFraction` of its
    /// height on the top and at the bottom.
    @inline(__always)
    func expanded(widthBy widthFraction: Double, heightBy heightFraction: Double) -> BoundingBox {
        BoundingBox(
            x: x - widthFraction * width, y: y - heightFraction * height,
            width: width * (1 + 2 * widthFraction), height: height * (1 + 2 * heightFraction))
    }

    /// The box `share` of the way from this one to `other` (0: this box, 1: `other`), each coordinate and size on a
    /// straight line.
    func interpolated(to other: BoundingBox, by share: Double) -> BoundingBox {
        BoundingBox(
            x: x + (other.x - x) * share, y: y + (other.y - y) * share,
            width: width + (other.width - width) * share, height: height + (other.height - height) * share)
    }
}
