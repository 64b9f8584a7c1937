import LiteVisionGeometry

/// Stored pixels and the orientation that turns them upright: the one value every feature reads an image
/// through, made once per call. Results are in upright coordinates of the image as stored in its file (a JPEG
/// decoded at reduced size still gives results in the photo's own pixels); pixels are read where they are.
package struct OrientedImage: Sendable {
    /// The pixels as stored (decoded file, camera buffer), possibly decoded at a reduced size.
    package let pixels: ImageBuffer
    /// How the stored pixels must be turned to be upright.
    package let orientation: ImageOrientation
    /// The stored size of the full image, which results refer to: `pixels`' size unless the file was decoded
    /// at a reduced size.
    package let storedSize: (width: Int, height: Int)
    /// Whether `orientation` is the EXIF orientation of the image file the pixels were decoded from (false for
    /// pixel buffers, and for files whose orientation the caller overrode).
    package let orientationIsFromFile: Bool

    package init(
        pixels: ImageBuffer, orientation: ImageOrientation, storedSize: (width: Int, height: Int)? = nil,
        orientationIsFromFile: Bool = false
    ) {
        self.pixels = pixels
        self.orientation = orientation
        self.storedSize = storedSize ?? (pixels.width, pixels.height)
        self.orientationIsFromFile = orientationIsFromFile
    }

    /// The upright size that results (boxes) are expressed in.
    package var resultSize: (width: Int, height: Int) {
        orientation.uprightSize(width: storedSize.width, height: storedSize.height)
    }

    /// The width of the upright image.
    package var uprightWidth: Int { orientation.uprightSize(width: pixels.width, height: pixels.height).width }
    /// The height of the upright image.
    package var uprightHeight: Int { orientation.uprightSize(width: pixels.width, height: pixels.height).height }

    /// Every stored pixel.
    package var storedBounds: PixelRect { PixelRect(x: 0, y: 0, width: pixels.width, height: pixels.height) }

    /// The stored pixels under `box` (upright result coordinates), edges rounded outward, clipped to the image;
    /// nil when nothing of the box is inside the image.
    package func storedRegion(of box: BoundingBox) -> PixelRect? {
        let result = resultSize
        let scaleX = Double(uprightWidth) / Double(max(1, result.width))
        let scaleY = Double(uprightHeight) / Double(max(1, result.height))
        let scaled = BoundingBox(
            x: box.x * scaleX, y: box.y * scaleY, width: box.width * scaleX, height: box.height * scaleY)
        let upright = scaled.clamped(width: Double(uprightWidth), height: Double(uprightHeight))
        let stored = orientation.mapToStored(rect: upright, storedWidth: pixels.width, storedHeight: pixels.height)
        return PixelRect(stored, rounding: .outward, imageWidth: pixels.width, imageHeight: pixels.height)
    }
}
