import LiteVisionGeometry

/// Decodes JPEG and PNG images into RGB8 pixel buffers, with their EXIF orientation.
///
/// By default (``Reference/pillow``) JPEG goes through libjpeg-turbo, PNG through libpng, and decoding matches
/// Pillow's defaults (the reference the project is checked against): JPEG pixels are bit-identical to Pillow's.
/// ``Reference/mediaPipe`` decodes as MediaPipe's `Image.create_from_file` does instead (``StbImageDecoder``,
/// ``EasyEXIFOrientation``).
///
/// Decoding is strict by default: data that libjpeg-turbo or libpng finds damaged (a marker inside a JPEG's
/// compressed data, a bad Huffman code, a file cut short, a PNG without its IEND chunk) is an error, not a
/// grey or half-drawn picture. ``allowsDamagedData`` asks for best-effort decoding instead.
///
/// The decoder holds no mutable state: one value can be used from any number of threads at once.
///
/// ```swift
/// let decoded = try ImageDecoder().decodeFile(atPath: "photo.jpg", minimumSize: (224, 224))
/// print(decoded.image.width, decoded.orientation)
/// ```
package struct ImageDecoder: Sendable {
    /// Whose decoding of a file the pixels and orientation reproduce.
    package enum Reference: Sendable, Equatable {
        /// Pillow's (libjpeg-turbo and libpng, the EXIF orientation of JPEG and PNG files read as Pillow reads it):
        /// the reference outputs' convention.
        case pillow
        /// MediaPipe 1.2.2's `Image.create_from_file`: stb_image's pixels (``StbImageDecoder``), turned by the EXIF
        /// orientation MediaPipe reads (``EasyEXIFOrientation``: JPEG only). Always full size, on one thread;
        /// stb_image has a single mode, so ``allowsDamagedData`` does not apply.
        case mediaPipe
    }

    /// The default limit on the number of pixels an image may declare: 100 megapixels
    /// (100,000,000), enough for any camera photo and far below what would exhaust memory
    /// (decoding 100 megapixels needs 300 MB of RGB output).
    package static let defaultMaxPixelCount = 100_000_000

    /// The largest `width * height` accepted. Larger images are refused with
    /// ``ImageDecodingError/tooLarge(width:height:limit:)`` from their header, before any pixel
    /// memory is allocated. The limit applies to the stored size, even when DCT scaling is requested.
    package let maxPixelCount: Int

    /// Whether damaged data is decoded as far as it goes instead of being refused (`false` by default).
    ///
    /// When `false` (strict), libjpeg-turbo stops at its first warning (its `TJFLAG_STOPONWARNING`) and any
    /// damage is an ``ImageDecodingError/corrupt(_:)`` or ``ImageDecodingError/truncated(_:)`` error. When `true`
    /// (lenient), what libjpeg-turbo can recover from is decoded — damaged or missing blocks come out grey or
    /// wrong — and reported in ``DecodedImage/warning``; errors fatal to libjpeg-turbo or libpng (a
    /// second SOF, a PNG CRC error in IHDR or IDAT, PNG data that ends inside the image) stay errors.
    package let allowsDamagedData: Bool

    /// Threads one decode may use (1 by default). A JPEG of a megapixel or more with a single sequential scan
    /// (the usual camera photo; not progressive, not CMYK) is decoded in horizontal bands on up to this many
    /// threads, about 0.7 of the time with two, with the same pixels (see ``JPEGBandDecoder``).
    package let threadCount: Int

    /// The smallest decoded image (in pixels) split into bands when ``threadCount`` allows: a megapixel by default
    /// (``JPEGBandPlan/minimumPixelCount``); tests and the fuzzer lower it to band small images too.
    package let bandMinimumPixelCount: Int

    /// Whose decoding the pixels reproduce: Pillow's (the default) or MediaPipe's.
    package let reference: Reference

    /// Creates a decoder refusing images that declare more than `maxPixelCount` pixels
    /// (default ``defaultMaxPixelCount``, 100 megapixels), and, unless `allowsDamagedData`, damaged data,
    /// using up to `threadCount` threads per image, with `reference`'s pixels. `maxPixelCount` must be positive.
    package init(
        maxPixelCount: Int = defaultMaxPixelCount, allowsDamagedData: Bool = false, threadCount: Int = 1,
        bandMinimumPixelCount: Int = JPEGBandPlan.minimumPixelCount, reference: Reference = .pillow
    ) {
        precondition(maxPixelCount > 0, "ImageDecoder: maxPixelCount must be positive")
        self.reference = reference
        self.maxPixelCount = maxPixelCount
        self.allowsDamagedData = allowsDamagedData
        self.threadCount = max(1, threadCount)
        self.bandMinimumPixelCount = bandMinimumPixelCount
    }

    /// Decodes JPEG or PNG bytes to RGB8 (see ``DecodedImage/image``).
    ///
    /// - Parameters:
    ///   - bytes: the whole file in memory. Only read during the call.
    ///   - minimumSize: when given and the image is a JPEG, the image is shrunk while decoding, in
    ///     the DCT domain (much faster than decoding and then resizing), by the largest factor among
    ///     1/2, 1/4 and 1/8 that keeps its width and height at least `minimumSize.width` and
    ///     `minimumSize.height`. The sizes are those of the stored image, before orientation: for
    ///     orientations that swap width and height, swap the minimum too. `nil` decodes at full size;
    ///     PNG, and any file with the ``Reference/mediaPipe`` reference, is always decoded at full size.
    ///   - orientation: the image's EXIF orientation when the caller has read it already (from
    ///     ``inspect(_:)-(UnsafeRawBufferPointer)``): it is returned as is and the EXIF data is not parsed again.
    ///     `nil` (the default) reads it from the bytes, as the ``reference`` does.
    /// - Returns: the pixels, the EXIF orientation and the stored size.
    /// - Throws: ``ImageDecodingError`` when the data is empty, not JPEG or PNG, truncated, corrupt (any
    ///   damage, unless ``allowsDamagedData``), or declares a size beyond ``maxPixelCount``.
    package func decode(
        _ bytes: UnsafeRawBufferPointer,
        minimumSize: (width: Int, height: Int)? = nil, orientation: ImageOrientation? = nil
    ) throws(ImageDecodingError) -> DecodedImage {
        let view = ByteView(bytes: bytes)
        switch (FormatSniffer.format(of: view), reference) {
        case (.failure(let error), _): throw error
        case (.success(let format), .mediaPipe): return try decodeAsMediaPipe(view, format, orientation: orientation)
        case (.success(.jpeg), .pillow): return try decodeJPEG(view, minimumSize: minimumSize, orientation: orientation)
        case (.success(.png), .pillow): return try decodePNG(view, orientation: orientation)
        }
    }

    /// Decodes JPEG or PNG bytes held in an array; see
    /// ``decode(_:minimumSize:orientation:)-(UnsafeRawBufferPointer,_,_)``.
    package func decode(
        _ bytes: [UInt8],
        minimumSize: (width: Int, height: Int)? = nil, orientation: ImageOrientation? = nil
    ) throws(ImageDecodingError) -> DecodedImage {
        let result = bytes.withUnsafeBytes { raw in
            Result { () throws(ImageDecodingError) in
                try decode(raw, minimumSize: minimumSize, orientation: orientation)
            }
        }
        return try result.get()
    }

    /// Reads only the header: format, stored width and height, and EXIF orientation. No pixels are
    /// decoded, so this is cheap even for huge images (and is not subject to ``maxPixelCount``).
    package func inspect(_ bytes: UnsafeRawBufferPointer) throws(ImageDecodingError) -> ImageHeaderInfo {
        let view = ByteView(bytes: bytes)
        switch FormatSniffer.format(of: view) {
        case .failure(let error):
            throw error
        case .success(.jpeg):
            let header = try TurboJPEGDecoder.withHandle { handle throws(ImageDecodingError) in
                try TurboJPEGDecoder.readHeader(handle, view)
            }
            return ImageHeaderInfo(
                format: .jpeg, width: header.width, height: header.height,
                orientation: EXIFReader.orientation(inJPEG: bytes) ?? .up)
        case .success(.png):
            let size = try LibPNGDecoder.readHeader(view)
            return ImageHeaderInfo(
                format: .png, width: size.width, height: size.height,
                orientation: EXIFReader.orientation(inPNG: bytes) ?? .up)
        }
    }

    /// Reads only the header of bytes held in an array; see ``inspect(_:)-(UnsafeRawBufferPointer)``.
    package func inspect(_ bytes: [UInt8]) throws(ImageDecodingError) -> ImageHeaderInfo {
        let result = bytes.withUnsafeBytes { raw in
            Result { () throws(ImageDecodingError) in try inspect(raw) }
        }
        return try result.get()
    }

    /// Refuses sizes over the pixel limit.
    func checkLimit(width: Int, height: Int) throws(ImageDecodingError) {
        let (pixels, overflow) = width.multipliedReportingOverflow(by: height)
        if overflow || pixels > maxPixelCount {
            throw .tooLarge(width: width, height: height, limit: maxPixelCount)
        }
    }

    private func decodeJPEG(
        _ view: ByteView,
        minimumSize: (width: Int, height: Int)?, orientation: ImageOrientation?
    ) throws(ImageDecodingError) -> DecodedImage {
        try TurboJPEGDecoder.withHandle { handle throws(ImageDecodingError) in
            let header = try TurboJPEGDecoder.readHeader(handle, view)
            try checkLimit(width: header.width, height: header.height)
            let denominator = JPEGScaling.denominator(
                width: header.width, height: header.height,
                minimum: minimumSize)
            let (image, warning, bandCount) = try TurboJPEGDecoder.decodeRGB(
                handle, view, header: header,
                denominator: denominator, allowsDamage: allowsDamagedData,
                bands: (threadCount, bandMinimumPixelCount))
            return DecodedImage(
                image: image, orientation: orientation ?? EXIFReader.orientation(inJPEG: view.bytes) ?? .up,
                format: .jpeg, originalWidth: header.width, originalHeight: header.height,
                scaleDenominator: denominator, warning: warning, bandCount: bandCount)
        }
    }

    /// What MediaPipe's `Image.create_from_file` makes of the file: stb_image's pixels and MediaPipe's orientation.
    private func decodeAsMediaPipe(
        _ view: ByteView, _ format: ImageFileFormat, orientation: ImageOrientation?
    ) throws(ImageDecodingError) -> DecodedImage {
        let image = try StbImageDecoder.decodeRGB(view, format: format, maxPixelCount: maxPixelCount)
        return DecodedImage(
            image: image, orientation: orientation ?? EasyEXIFOrientation.orientation(in: view), format: format,
            originalWidth: image.width, originalHeight: image.height)
    }

    private func decodePNG(
        _ view: ByteView, orientation: ImageOrientation?
    ) throws(ImageDecodingError) -> DecodedImage {
        let size = try LibPNGDecoder.readHeader(view)
        try checkLimit(width: size.width, height: size.height)
        let (image, warning) = try LibPNGDecoder.decodeRGB(view, allowsDamage: allowsDamagedData)
        return DecodedImage(
            image: image, orientation: orientation ?? EXIFReader.orientation(inPNG: view.bytes) ?? .up,
            format: .png, originalWidth: size.width, originalHeight: size.height,
            scaleDenominator: 1, warning: warning)
    }
}
