import CStbImage

/// JPEG and PNG decoding with stb_image, the decoder of MediaPipe's `Image.create_from_file` (MediaPipe 1.2.2 reads
/// the whole file and calls `stbi_load_from_memory`): its pixels, which are not libjpeg-turbo's.
///
/// stb_image has its own IDCT and chroma upsampling: on JPEG photos its pixels differ from libjpeg-turbo's (and so
/// Pillow's) by up to 3 levels per channel on most of the shared photos, 16 on img_meal_one.jpg, more on other
/// photos near sharp colour edges. PNG pixels are libpng's, except that
/// 16-bit samples keep their high byte (libpng rounds) and a `gAMA` chunk is ignored (libpng applies one far from
/// sRGB). Conversions to RGB8 are stb_image's: gray replicated, alpha dropped without compositing (as MediaPipe's
/// preprocessing drops the alpha of its RGBA images), CMYK and YCCK JPEGs converted by stb_image.
///
/// stb_image has one mode, close to libjpeg-turbo's lenient one: it refuses a JPEG without its end-of-image marker,
/// bad Huffman codes and PNGs cut short, but not all damage (it does not check PNG CRCs). Hostile data is bounded
/// before and while stb_image reads it: the declared size is read first (`stbi_info`) and checked against the
/// decoder's pixel limit; no allocation stb_image makes may exceed 16 bytes per declared pixel (plus 1 MiB), so PNG
/// data inflating beyond its image cannot exhaust memory; JPEGs with more than ``maximumScanCount`` scans, and
/// Huffman tables of more than 256 codes (which overflow the arrays of Debian's stb_image 2.27), are refused before
/// stb_image sees them.
enum StbImageDecoder {
    /// The most scans a JPEG may have: libjpeg-turbo's limit (`TJFLAG_LIMITSCANS`), which bounds the time a
    /// progressive file crafted with thousands of scans takes.
    static let maximumScanCount = 500

    /// The largest file stb_image reads (its lengths are C `int`s).
    static let maximumFileSize = Int(Int32.max)

    /// Decodes `bytes`, a `format` file, to tightly packed RGB8, refusing images that declare more than
    /// `maxPixelCount` pixels before any pixel memory is allocated.
    static func decodeRGB(
        _ bytes: ByteView, format: ImageFileFormat, maxPixelCount: Int
    ) throws(ImageDecodingError) -> ImageBuffer {
        guard bytes.count <= maximumFileSize else {
            throw .corrupt(
                "\(format) file is \(bytes.count) bytes, more than the 2 GiB stb_image (MediaPipe's decoder) reads")
        }
        if format == .jpeg { try checkStructure(ofJPEG: bytes) }
        let source = bytes.bytes.baseAddress!.assumingMemoryBound(to: UInt8.self)
        var width: Int32 = 0, height: Int32 = 0, channels: Int32 = 0
        let png: Int32 = format == .png ? 1 : 0
        guard litevision_stb_info(source, Int32(bytes.count), png, &width, &height, &channels) != 0 else {
            throw headerError(bytes, format: format, reason: failureReason(), maxPixelCount: maxPixelCount)
        }
        let (pixelCount, overflow) = Int(width).multipliedReportingOverflow(by: Int(height))
        guard !overflow, pixelCount <= maxPixelCount else {
            throw .tooLarge(width: Int(width), height: Int(height), limit: maxPixelCount)
        }
        let largestAllocation = pixelCount * 16 + (1 << 20)
        var decodedWidth: Int32 = 0, decodedHeight: Int32 = 0
        guard
            let decoded = litevision_stb_load(
                source, Int32(bytes.count), &decodedWidth, &decodedHeight, &channels, 3, largestAllocation)
        else {
            throw dataError(bytes, format: format, reason: failureReason())
        }
        defer { litevision_stb_free(decoded) }
        guard decodedWidth == width, decodedHeight == height else {
            throw .corrupt(
                "\(format) data is invalid: stb_image decoded \(decodedWidth)x\(decodedHeight) pixels where the "
                    + "header declares \(width)x\(height)")
        }
        let pixels = [UInt8](UnsafeBufferPointer(start: decoded, count: pixelCount * 3))
        return ImageBuffer(width: Int(width), height: Int(height), format: .rgb8, pixels: pixels)
    }

    /// Refuses JPEGs stb_image 2.27 must not read: more scans than ``maximumScanCount``, or a Huffman table (DHT)
    /// of more than 256 codes anywhere in the file. Tables are read as stb_image reads them, from the start of
    /// their segment on, even past its end.
    static func checkStructure(ofJPEG bytes: ByteView) throws(ImageDecodingError) {
        var scans = 0
        var oversizedTable: Int?
        let start = bytes.bytes.baseAddress!
        JPEGMarkerScanner.forEachSegmentThroughScans(in: bytes) { segment in
            if segment.marker == 0xDA {
                scans += 1
                return scans <= maximumScanCount
            }
            guard segment.marker == 0xC4 else { return true }
            let payloadStart = segment.payload.count == 0 ? 0 : start.distance(to: segment.payload.bytes.baseAddress!)
            var offset = 0
            while offset < segment.payload.count {
                var codes = 0
                for index in 1...16 { codes += Int(bytes.u8(at: payloadStart + offset + index) ?? 0) }
                if codes > 256 {
                    oversizedTable = codes
                    return false
                }
                offset += 17 + codes
            }
            return true
        }
        if let oversizedTable {
            throw .corrupt("JPEG data is invalid: a Huffman table (DHT) declares \(oversizedTable) codes; at most 256")
        }
        if scans > maximumScanCount {
            throw .corrupt(
                "JPEG data has more than \(maximumScanCount) scans, refused to bound the decoding time "
                    + "(as libjpeg-turbo refuses them)")
        }
    }

    /// The error for a header stb_image cannot read: the same as the standard decoder's when its header readers
    /// find a fault (truncated, zero size), else stb_image's reason.
    private static func headerError(
        _ bytes: ByteView, format: ImageFileFormat, reason: String, maxPixelCount: Int
    ) -> ImageDecodingError {
        switch format {
        case .jpeg:
            do {
                _ = try TurboJPEGDecoder.withHandle { handle throws(ImageDecodingError) in
                    try TurboJPEGDecoder.readHeader(handle, bytes)
                }
            } catch {
                return error
            }
        case .png:
            do {
                let size = try LibPNGDecoder.readHeader(bytes)
                let limit = Int(litevision_stb_max_dimension())
                if size.width * size.height > maxPixelCount {  // each side is below 2^31: no overflow
                    return .tooLarge(width: size.width, height: size.height, limit: maxPixelCount)
                }
                if size.width > limit || size.height > limit {
                    return .corrupt(
                        "PNG header declares \(size.width)x\(size.height) pixels, more than the \(limit) per side "
                            + "stb_image (MediaPipe's decoder) reads")
                }
            } catch {
                return error
            }
        }
        return .corrupt("\(format) header is invalid for stb_image, MediaPipe's decoder (stb_image: \(reason))")
    }

    /// The error for data stb_image could not decode after reading its header: truncated when the file has no
    /// proper end (a JPEG's end-of-image marker, a PNG's IEND chunk), corrupt otherwise.
    private static func dataError(_ bytes: ByteView, format: ImageFileFormat, reason: String) -> ImageDecodingError {
        switch format {
        case .jpeg:
            if !JPEGMarkerScanner.hasEndMarkerAfterFirstScan(bytes) {
                return .truncated(
                    "JPEG data ends before the image is complete: no end-of-image marker (stb_image: \(reason))")
            }
        case .png:
            if PNGChunkScanner.ending(of: bytes) == .missing {
                return .truncated("PNG data ends before the image is complete (stb_image: \(reason))")
            }
        }
        if reason == "outofmem" {
            return .corrupt(
                "\(format) data is invalid: decoding it needs more memory than its declared size allows "
                    + "(stb_image: \(reason))")
        }
        return .corrupt("\(format) data is invalid (stb_image: \(reason))")
    }

    /// stb_image's reason for this thread's last failure.
    private static func failureReason() -> String {
        String(cString: litevision_stb_failure_reason())
    }
}
