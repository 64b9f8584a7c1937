import LiteVisionGeometry

/// What the header of a JPEG or PNG file says, read without decoding pixels.
package struct ImageHeaderInfo: Sendable, Equatable {
    /// The file format.
    package var format: ImageFileFormat
    /// The stored width in pixels.
    package var width: Int
    /// The stored height in pixels.
    package var height: Int
    /// The EXIF orientation (``ImageOrientation/up`` when absent or invalid).
    package var orientation: ImageOrientation

    /// Creates header information from its parts.
    package init(format: ImageFileFormat, width: Int, height: Int, orientation: ImageOrientation) {
        self.format = format
        self.width = width
        self.height = height
        self.orientation = orientation
    }

    /// The size of the picture once shown upright: width and height swapped for the 90° orientations.
    package var uprightSize: (width: Int, height: Int) {
        orientation.uprightSize(width: width, height: height)
    }
}
