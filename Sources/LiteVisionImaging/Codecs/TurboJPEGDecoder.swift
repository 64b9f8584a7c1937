import CTurboJPEG

/// JPEG decoding with libjpeg-turbo's TurboJPEG API.
///
/// Settings match Pillow's defaults so the pixels are the same: accurate integer IDCT (libjpeg's
/// `JDCT_ISLOW`, TurboJPEG's default for decompression) and "fancy" (smooth) chroma upsampling.
/// A TurboJPEG handle is created per call: it is cheap, and nothing is shared between threads.
enum TurboJPEGDecoder {
    /// What `tjDecompressHeader3` reports.
    struct Header {
        let width: Int
        let height: Int
        let colorspace: Int32

        /// Whether the JPEG holds CMYK (or YCCK) data, which libjpeg-turbo cannot turn into RGB itself.
        var isCMYK: Bool {
            colorspace == Int32(TJCS_CMYK.rawValue) || colorspace == Int32(TJCS_YCCK.rawValue)
        }
    }

    /// Decompression flags: TurboJPEG's defaults plus a cap on progressive scans (a guard against
    /// files crafted to take minutes to decode).
    static let flags = TJFLAG_LIMITSCANS

    /// Runs `body` with a fresh decompressor handle, destroyed afterwards.
    static func withHandle<R>(_ body: (tjhandle) throws(ImageDecodingError) -> R) throws(ImageDecodingError) -> R {
        guard let handle = tjInitDecompress() else {
            throw .corrupt("JPEG: libjpeg-turbo could not create a decompressor (\(lastGlobalError()))")
        }
        defer { tjDestroy(handle) }
        return try body(handle)
    }

    /// Reads the frame header: stored width, height and colour space.
    static func readHeader(_ handle: tjhandle, _ bytes: ByteView) throws(ImageDecodingError) -> Header {
        var width: Int32 = 0, height: Int32 = 0, subsampling: Int32 = 0, colorspace: Int32 = 0
        let status = tjDecompressHeader3(
            handle, source(bytes), UInt(bytes.count),
            &width, &height, &subsampling, &colorspace)
        let failed =
            status != 0
            && !(tjGetErrorCode(handle) == Int32(TJERR_WARNING.rawValue) && width > 0 && height > 0)
        if failed || width <= 0 || height <= 0 {
            // libjpeg-turbo reads a cut-off header as a tables-only stream (size 0x0) or fails.
            if !JPEGMarkerScanner.headerIsComplete(bytes) {
                throw .truncated("JPEG data ends inside its header, after \(bytes.count) bytes")
            }
            if failed {
                throw .corrupt("JPEG header is invalid (libjpeg-turbo: \(errorMessage(handle)))")
            }
            if width == 0 && height == 0 {
                throw .corrupt("JPEG data holds no image, only tables (no frame header before its end)")
            }
            throw .invalidDimensions(width: Int(width), height: Int(height))
        }
        return Header(width: Int(width), height: Int(height), colorspace: colorspace)
    }

    /// Decodes the whole image at `1/denominator` of its stored size into tightly packed RGB8.
    ///
    /// Returns the pixels and the warning libjpeg-turbo emitted for recoverable damage, if any.
    /// A file that ends early ("Premature end of JPEG file") is an error, not a warning.
    static func decodeRGB(
        _ handle: tjhandle, _ bytes: ByteView, header: Header,
        denominator: Int
    ) throws(ImageDecodingError) -> (ImageBuffer, warning: String?) {
        let width = JPEGScaling.scaled(header.width, by: denominator)
        let height = JPEGScaling.scaled(header.height, by: denominator)
        let channels = header.isCMYK ? 4 : 3
        let pixelFormat = header.isCMYK ? TJPF_CMYK : TJPF_RGB
        var outcome: Result<String?, ImageDecodingError> = .success(nil)
        var pixels = [UInt8](unsafeUninitializedCapacity: width * height * channels) { buffer, initialized in
            let status = tjDecompress2(
                handle, source(bytes), UInt(bytes.count), buffer.baseAddress,
                Int32(width), Int32(width * channels), Int32(height),
                Int32(pixelFormat.rawValue), flags)
            outcome = classify(status: status, handle: handle, bytes: bytes)
            if case .success = outcome { initialized = buffer.count } else { initialized = 0 }
        }
        let warning: String?
        switch outcome {
        case .failure(let error): throw error
        case .success(let message): warning = message
        }
        if header.isCMYK {
            CMYKConversion.convertToRGBInPlace(&pixels, pixelCount: width * height)
        }
        return (ImageBuffer(width: width, height: height, format: .rgb8, pixels: pixels), warning)
    }

    /// Turns a `tjDecompress2` status into success (with an optional warning) or an error.
    ///
    /// libjpeg-turbo keeps only its first warning's text, so a file cut short after some other
    /// recoverable damage would not say "Premature end of JPEG file": such files are recognised by
    /// their missing EOI marker instead.
    private static func classify(
        status: Int32, handle: tjhandle, bytes: ByteView
    ) -> Result<String?, ImageDecodingError> {
        guard status != 0 else { return .success(nil) }
        let message = errorMessage(handle)
        if message.contains("Premature end of JPEG file") {
            return .failure(.truncated("JPEG data ends before the image is complete (libjpeg-turbo: \(message))"))
        }
        guard tjGetErrorCode(handle) == Int32(TJERR_WARNING.rawValue) else {
            return .failure(.corrupt("JPEG data is invalid (libjpeg-turbo: \(message))"))
        }
        if !JPEGMarkerScanner.hasEndMarkerAfterFirstScan(bytes) {
            return .failure(
                .truncated(
                    "JPEG data ends before the image is complete: no end-of-image marker "
                        + "(libjpeg-turbo: \(message))"))
        }
        return .success(message)
    }

    private static func source(_ bytes: ByteView) -> UnsafePointer<UInt8>? {
        bytes.bytes.baseAddress?.assumingMemoryBound(to: UInt8.self)
    }

    private static func errorMessage(_ handle: tjhandle) -> String {
        guard let text = tjGetErrorStr2(handle) else { return "unknown error" }
        return String(cString: text)
    }

    private static func lastGlobalError() -> String {
        guard let text = tjGetErrorStr2(nil) else { return "unknown error" }
        return String(cString: text)
    }
}
