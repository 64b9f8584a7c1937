import LiteVisionGeometry

/// Stored pixels and the orientation that turns them upright: the one value every feature reads an image
/// through, made once per call. Results are in upright coordinates; pixels are read where they are stored.
package struct OrientedImage: Sendable {
    /// The pixels as stored (decoded file, camera buffer).
    package let pixels: ImageBuffer
    /// How the stored pixels must be turned to be upright.
    package let orientation: ImageOrientation

    package init(pixels: ImageBuffer, orientation: ImageOrientation) {
        self.pixels = pixels
        self.orientation = orientation
    }

    /// The width of the upright image.
    package var uprightWidth: Int { orientation.uprightSize(width: pixels.width, height: pixels.height).width }
    /// The height of the upright image.
    package var uprightHeight: Int { orientation.uprightSize(width: pixels.width, height: pixels.height).height }

    /// Every stored pixel.
    package var storedBounds: PixelRect { PixelRect(x: 0, y: 0, width: pixels.width, height: pixels.height) }

    /// The stored pixels under `box` (upright coordinates), edges rounded outward, clipped to the image; nil
    /// when nothing of the box is inside the image.
    package func storedRegion(of box: BoundingBox) -> PixelRect? {
        let upright = box.clamped(width: Double(uprightWidth), height: Double(uprightHeight))
        let stored = orientation.mapToStored(rect: upright, storedWidth: pixels.width, storedHeight: pixels.height)
        return PixelRect(stored, rounding: .outward, imageWidth: pixels.width, imageHeight: pixels.height)
    }
}
