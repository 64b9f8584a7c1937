import LiteVisionGeometry

/// An image decoded from a JPEG or PNG file, with what its header says about it.
package struct DecodedImage: Sendable {
    /// The pixels, always ``PixelFormat/rgb8`` with tightly packed rows (`bytesPerRow == width * 3`),
    /// as stored in the file (not yet turned upright: see ``orientation``).
    ///
    /// Grayscale images are expanded to RGB; CMYK JPEGs are converted to RGB; PNG alpha is dropped
    /// (as ML Kit ignores alpha); 16-bit PNG samples are rounded to 8 bits. A PNG `gAMA` chunk that
    /// differs from sRGB's gamma is applied by libpng (Pillow ignores it); ICC profiles are ignored.
    /// (With the ``ImageDecoder/Reference/mediaPipe`` reference the pixels are stb_image's: 16-bit samples keep
    /// their high byte and `gAMA` is ignored, as in MediaPipe.)
    package var image: ImageBuffer
    /// How the stored pixels must be turned to show the picture upright, from the EXIF `Orientation`
    /// tag (JPEG APP1 or PNG `eXIf` chunk; as MediaPipe reads it with the ``ImageDecoder/Reference/mediaPipe``
    /// reference, see ``EasyEXIFOrientation``); ``ImageOrientation/up`` when absent or invalid.
    package var orientation: ImageOrientation
    /// The file format the image was decoded from.
    package var format: ImageFileFormat
    /// The stored width of the image in the file, before any DCT scaling.
    package var originalWidth: Int
    /// The stored height of the image in the file, before any DCT scaling.
    package var originalHeight: Int
    /// By how much a JPEG was shrunk while decoding (1, 2, 4 or 8): `image` is the stored image
    /// scaled by `1/scaleDenominator`, rounded up. Always 1 for PNG and for full-size decoding.
    package var scaleDenominator: Int
    /// A warning from libjpeg-turbo or libpng, or `nil`. With a lenient decoder
    /// (``ImageDecoder/allowsDamagedData``) it names recoverable damage (for example "Corrupt JPEG data: bad
    /// Huffman code"): the image was decoded anyway, as browsers do, but some of its pixels may be wrong. A
    /// strict decoder refuses such data, so its warnings only concern what does not touch the pixels (a PNG
    /// ancillary chunk with a bad CRC, which is ignored).
    package var warning: String?
    /// Into how many horizontal bands, decoded on as many threads, the image was cut: 1 when it was decoded
    /// whole (PNG, small or progressive JPEGs, one thread, or damage met in a band).
    package var bandCount: Int

    /// Creates a decoded image from its parts.
    package init(
        image: ImageBuffer, orientation: ImageOrientation, format: ImageFileFormat,
        originalWidth: Int, originalHeight: Int, scaleDenominator: Int = 1, warning: String? = nil,
        bandCount: Int = 1
    ) {
        self.image = image
        self.orientation = orientation
        self.format = format
        self.originalWidth = originalWidth
        self.originalHeight = originalHeight
        self.scaleDenominator = scaleDenominator
        self.warning = warning
        self.bandCount = bandCount
    }
}
