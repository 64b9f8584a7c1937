import CTurboJPEG
import LiteVisionSystem

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
    /// Strict (`allowsDamage == false`, the default of ``ImageDecoder``): libjpeg-turbo stops at its first
    /// warning (`TJFLAG_STOPONWARNING`), so any damage libjpeg-turbo notices — a marker or a second SOF inside
    /// the compressed data, a bad Huffman code, a file that ends early — is an error, as Pillow reports
    /// "broken data stream" for them. Lenient: the image is decoded as far as libjpeg-turbo can recover,
    /// the missing or damaged parts filled in, and its first warning is returned with the pixels; an error
    /// that is fatal to libjpeg-turbo is still an error, even when warnings came before it.
    ///
    /// With `bands.threads` above 1, a single-scan image of at least `bands.minimumPixelCount` pixels is first
    /// decoded in bands on that many threads (``JPEGBandDecoder``, the same pixels); when any band meets damage,
    /// the image is decoded whole as above. `bandCount` says how many bands were decoded (1: the whole image).
    static func decodeRGB(
        _ handle: tjhandle, _ bytes: ByteView, header: Header,
        denominator: Int, allowsDamage: Bool = false,
        bands: (threads: Int, minimumPixelCount: Int) = (1, JPEGBandPlan.minimumPixelCount)
    ) throws(ImageDecodingError) -> (ImageBuffer, warning: String?, bandCount: Int) {
        let width = JPEGScaling.scaled(header.width, by: denominator)
        let height = JPEGScaling.scaled(header.height, by: denominator)
        let channels = header.isCMYK ? 4 : 3
        let pixelFormat = header.isCMYK ? TJPF_CMYK : TJPF_RGB
        var outcome: Result<String?, ImageDecodingError> = .success(nil)
        var bandCount = 0
        var pixels = [UInt8](unsafeUninitializedCapacity: width * height * channels) { buffer, initialized in
            Platform.adviseHugePages(UnsafeMutableRawBufferPointer(buffer))
            if !header.isCMYK {
                bandCount = JPEGBandDecoder.decode(
                    bytes, storedWidth: header.width, storedHeight: header.height, denominator: denominator,
                    width: width, height: height, into: buffer,
                    threads: bands.threads, minimumPixelCount: bands.minimumPixelCount)
                if bandCount > 0 {
                    initialized = buffer.count
                    return
                }
            }
            func decompress(flags: Int32) -> Int32 {
                tjDecompress2(
                    handle, source(bytes), UInt(bytes.count), buffer.baseAddress,
                    Int32(width), Int32(width * channels), Int32(height),
                    Int32(pixelFormat.rawValue), flags)
            }
            // Always strict first: a clean file is decoded once, and the first problem is classified exactly.
            let strict = decompress(flags: Self.flags | TJFLAG_STOPONWARNING)
            outcome = classifyStrict(status: strict, handle: handle, bytes: bytes)
            if allowsDamage, case .failure = outcome, tjGetErrorCode(handle) == Int32(TJERR_WARNING.rawValue) {
                let firstWarning = errorMessage(handle)
                let lenient = decompress(flags: Self.flags)
                outcome = classifyLenient(status: lenient, handle: handle, firstWarning: firstWarning)
            }
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
        return (ImageBuffer(width: width, height: height, format: .rgb8, pixels: pixels), warning, max(1, bandCount))
    }

    /// Turns the status of a `tjDecompress2` call that stopped at the first warning into success or an error.
    ///
    /// A file cut short says "Premature end of JPEG file" unless some other damage came first; then the
    /// missing EOI marker still tells that it was cut.
    private static func classifyStrict(
        status: Int32, handle: tjhandle, bytes: ByteView
    ) -> Result<String?, ImageDecodingError> {
        guard status != 0 else { return .success(nil) }
        let message = errorMessage(handle)
        if message.contains("Premature end of JPEG file") {
            return .failure(.truncated("JPEG data ends before the image is complete (libjpeg-turbo: \(message))"))
        }
        if !JPEGMarkerScanner.hasEndMarkerAfterFirstScan(bytes) {
            return .failure(
                .truncated(
                    "JPEG data ends before the image is complete: no end-of-image marker "
                        + "(libjpeg-turbo: \(message))"))
        }
        return .failure(.corrupt("JPEG data is invalid (libjpeg-turbo: \(message))"))
    }

    /// Turns the status of a `tjDecompress2` call that went on after warnings into success or an error.
    ///
    /// libjpeg-turbo keeps reporting "warning" (`TJERR_WARNING`) once a warning was emitted, even when a fatal
    /// error followed it (its warning flag is never cleared), so the code cannot tell them apart. Its message
    /// can: libjpeg keeps only the first warning's text, which is `firstWarning` (from the strict pass), and a
    /// fatal error replaces it with its own.
    private static func classifyLenient(
        status: Int32, handle: tjhandle, firstWarning: String
    ) -> Result<String?, ImageDecodingError> {
        guard status != 0 else { return .success(nil) }
        let message = errorMessage(handle)
        guard tjGetErrorCode(handle) == Int32(TJERR_WARNING.rawValue), message == firstWarning else {
            return .failure(
                .corrupt(
                    "JPEG data is invalid, even for lenient decoding (libjpeg-turbo: \(message), "
                        + "after the warning: \(firstWarning))"))
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
