/// Tells the image format from the first bytes of a file ("magic bytes").
enum FormatSniffer {
    /// The format of the data, or the error to report when it is not JPEG or PNG.
    static func format(of bytes: ByteView) -> Result<ImageFileFormat, ImageDecodingError> {
        guard bytes.count > 0 else { return .failure(.empty) }
        if JPEGMarkerScanner.hasSignature(bytes) { return .success(.jpeg) }
        if PNGChunkScanner.hasSignature(bytes) { return .success(.png) }
        // A prefix of a signature: the start of a JPEG or PNG file cut short.
        let jpegStart: [UInt8] = [0xFF, 0xD8, 0xFF]
        if bytes.count < jpegStart.count, bytes.matches(Array(jpegStart.prefix(bytes.count)), at: 0) {
            return .failure(.truncated("JPEG data ends after \(bytes.count) byte(s), inside its signature"))
        }
        if bytes.count < PNGChunkScanner.signature.count,
            bytes.matches(Array(PNGChunkScanner.signature.prefix(bytes.count)), at: 0)
        {
            return .failure(.truncated("PNG data ends after \(bytes.count) byte(s), inside its signature"))
        }
        if bytes.count >= 3, bytes.matches([0xFF, 0xD8], at: 0) {
            return .failure(.corrupt("JPEG data starts with an SOI marker (FF D8) but no marker follows it"))
        }
        return .failure(.unsupportedFormat(otherKind(of: bytes)))
    }

    /// A short human description of data that is neither JPEG nor PNG.
    static func otherKind(of bytes: ByteView) -> String {
        func ascii(_ text: String, at offset: Int = 0) -> Bool { bytes.matches(Array(text.utf8), at: offset) }
        if ascii("GIF87a") || ascii("GIF89a") { return "a GIF image" }
        if ascii("RIFF") && ascii("WEBP", at: 8) { return "a WebP image" }
        if ascii("BM"), let dibHeaderSize = bytes.u32(at: 14, littleEndian: true),
            [12, 40, 52, 56, 64, 108, 124].contains(dibHeaderSize)
        {
            return "a BMP image"
        }
        if ascii("II*\0") || ascii("MM\0*") { return "a TIFF image" }
        if ascii("ftyp", at: 4) {
            if ascii("avif", at: 8) || ascii("avis", at: 8) { return "an AVIF image" }
            if ascii("heic", at: 8) || ascii("heix", at: 8) || ascii("mif1", at: 8) || ascii("msf1", at: 8) {
                return "a HEIF/HEIC image"
            }
            return "an ISO media file (MP4/MOV)"
        }
        if bytes.matches([0xFF, 0x0A], at: 0) || ascii("\0\0\0\u{0C}JXL ") { return "a JPEG XL image" }
        if ascii("\0\0\0\u{0C}jP  ") || bytes.matches([0xFF, 0x4F, 0xFF, 0x51], at: 0) {
            return "a JPEG 2000 image"
        }
        if bytes.matches([0x00, 0x00, 0x01, 0x00], at: 0) { return "an ICO icon" }
        if ascii("%PDF") { return "a PDF document" }
        if ascii("PK\u{03}\u{04}") { return "a ZIP archive" }
        if bytes.matches([0x1F, 0x8B], at: 0) { return "gzip-compressed data" }
        if looksLikeText(bytes) {
            let start = String(decoding: UnsafeRawBufferPointer(rebasing: bytes.bytes.prefix(24)), as: UTF8.self)
            let shown = start.map { $0.isNewline ? " " : String($0) }.joined()
            return "text (starts with \"\(shown)\"), for example an HTML error page or a text file"
        }
        let hex = bytes.bytes.prefix(8).map { byte in
            let digits = String(byte, radix: 16, uppercase: true)
            return digits.count == 1 ? "0" + digits : digits
        }.joined(separator: " ")
        return "an unknown format (starts with \(hex))"
    }

    /// Whether the first bytes are printable ASCII, whitespace or UTF-8 sequences.
    private static func looksLikeText(_ bytes: ByteView) -> Bool {
        let sample = bytes.bytes.prefix(512)
        guard !sample.isEmpty else { return false }
        return sample.allSatisfy { byte in
            byte == 0x09 || byte == 0x0A || byte == 0x0D || (byte >= 0x20 && byte != 0x7F)
        }
    }
}
