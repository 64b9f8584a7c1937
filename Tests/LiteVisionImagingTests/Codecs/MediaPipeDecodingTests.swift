import CZlib
import Foundation
import LiteVisionGeometry
import LiteVisionImaging
import LiteVisionTestSupport
import Testing

/// Decoding as MediaPipe's `Image.create_from_file` does (`ImageDecoder(reference: .mediaPipe)`: stb_image and
/// MediaPipe's EXIF reading), on damaged, foreign, empty, oversized and hostile inputs: a specific error, never a
/// crash, a hang or an allocation beyond what the declared size needs. (That its pixels and orientations are
/// MediaPipe's is checked against MediaPipe itself by MediaPipeParityTests.)
@Suite("Decoding as MediaPipe (stb_image): bad and hostile input")
struct MediaPipeDecodingTests {
    let decoder = ImageDecoder(reference: .mediaPipe)

    /// The error decoding `bytes` throws, or nil when it decodes.
    func error(_ bytes: [UInt8], decoder: ImageDecoder? = nil) -> ImageDecodingError? {
        do {
            _ = try (decoder ?? self.decoder).decode(bytes)
            return nil
        } catch {
            return error
        }
    }

    /// Whether `error` is `.truncated`.
    func isTruncated(_ error: ImageDecodingError?) -> Bool {
        if case .truncated = error { return true }
        return false
    }

    @Test("empty, foreign and text data are named, as by the standard decoder")
    func emptyAndForeign() {
        #expect(error([]) == .empty)
        if case .unsupportedFormat(let kind)? = error(Array("GIF89a".utf8) + [1, 0, 1, 0, 0x80, 0, 0]) {
            #expect(kind.contains("GIF"))
        } else {
            Issue.record("a GIF is not unsupported")
        }
        if case .unsupportedFormat(let kind)? = error(Array("<!DOCTYPE html>\n<html>404</html>".utf8)) {
            #expect(kind.contains("text"))
        } else {
            Issue.record("text is not unsupported")
        }
        #expect(
            error([0xFF, 0xD8, 0x00, 0x00])
                == .corrupt("JPEG data starts with an SOI marker (FF D8) but no marker follows it"))
    }

    @Test("a JPEG cut short is truncated: in its header, in its data, progressive or not")
    func truncatedJPEG() throws {
        let bird = try CodecTestHelpers.photoBytes("bird.jpg")
        for length in [1, 2, 3, 4, 20, 200, 600, bird.count / 2, bird.count - 2] {
            let found = error(Array(bird.prefix(length)))
            #expect(isTruncated(found), "first \(length) of \(bird.count) bytes: \(String(describing: found))")
        }
        if case .truncated(let detail)? = error(Array(bird.prefix(bird.count / 2))) {
            #expect(detail.contains("JPEG") && detail.contains("stb_image"), "\(detail)")
        }
        let progressive = try CodecTestHelpers.photoBytes("dandelion.jpg")
        #expect(isTruncated(error(Array(progressive.prefix(progressive.count * 3 / 4)))))
    }

    @Test("a PNG cut short, or without its IEND chunk, is truncated")
    func truncatedPNG() throws {
        let png = try PNGEncoder.encode(CodecTestHelpers.photoCrop)
        for length in [5, 20, 40, png.count / 2, png.count - 13, png.count - 12] {
            let found = error(Array(png.prefix(length)))
            #expect(isTruncated(found), "first \(length) of \(png.count) bytes: \(String(describing: found))")
        }
    }

    @Test("a zero width or height is refused")
    func zeroSize() throws {
        let png = CodecTestHelpers.pngHeader(width: 0, height: 10, rest: CodecTestHelpers.pngChunk("IEND", []))
        #expect(error(png) == .invalidDimensions(width: 0, height: 10))
        var jpeg = try JPEGEncoder.encode(CodecTestHelpers.photoCrop)
        let sof = try #require(CodecTestHelpers.offset(ofMarker: 0xC0, in: jpeg))
        jpeg.replaceSubrange((sof + 7)..<(sof + 9), with: [0, 0])  // width 0
        switch error(jpeg) {
        case .invalidDimensions?, .corrupt?: break
        case let other: Issue.record("a JPEG 0 pixels wide: \(String(describing: other))")
        }
    }

    @Test("a huge declared size is refused from the header, before any pixel is allocated")
    func hugeDeclaredSize() throws {
        var jpeg = try JPEGEncoder.encode(CodecTestHelpers.photoCrop, quality: 80)
        let sof = try #require(CodecTestHelpers.offset(ofMarker: 0xC0, in: jpeg))
        jpeg.replaceSubrange((sof + 5)..<(sof + 9), with: [0xEA, 0x60, 0xEA, 0x60])
        let start = ContinuousClock.now
        #expect(error(jpeg) == .tooLarge(width: 60000, height: 60000, limit: 100_000_000))
        #expect(ContinuousClock.now - start < .seconds(1))
        let idat = CodecTestHelpers.pngChunk("IDAT", [0x78, 0x9C])
        for side in [UInt32(60000), 0x7FFF_FFFF] {
            let png = CodecTestHelpers.pngHeader(width: side, height: side, rest: idat)
            #expect(error(png) == .tooLarge(width: Int(side), height: Int(side), limit: 100_000_000))
        }
        // 20 megapixels in one row: under the pixel limit, over stb_image's 2^24 pixels per side.
        let row = CodecTestHelpers.pngHeader(width: 20_000_000, height: 1, rest: idat)
        guard case .corrupt(let detail)? = error(row) else {
            Issue.record("a PNG 20,000,000 pixels wide: \(String(describing: error(row)))")
            return
        }
        #expect(detail.contains("16777216") && detail.contains("per side"), "\(detail)")
    }

    @Test("the pixel limit is the decoder's")
    func configurableLimit() throws {
        let bird = try CodecTestHelpers.photoBytes("bird.jpg")  // 2000x1508 = 3,016,000 pixels
        let tight = ImageDecoder(maxPixelCount: 3_015_999, reference: .mediaPipe)
        #expect(error(bird, decoder: tight) == .tooLarge(width: 2000, height: 1508, limit: 3_015_999))
        let decoded = try ImageDecoder(maxPixelCount: 3_016_000, reference: .mediaPipe).decode(bird)
        #expect(decoded.image.width == 2000 && decoded.image.height == 1508 && decoded.image.format == .rgb8)
    }

    @Test("PNG data inflating far beyond its declared size is refused, without using that memory")
    func inflationBomb() throws {
        // A 16x16 RGB PNG (784 bytes of filtered rows) whose one IDAT chunk inflates to 16 MB of zeros.
        let zeros = [UInt8](repeating: 0, count: 16 << 20)
        var compressed = [UInt8](repeating: 0, count: Int(compressBound(UInt(zeros.count))))
        var length = UInt(compressed.count)
        #expect(compress2(&compressed, &length, zeros, UInt(zeros.count), 9) == Z_OK)
        let png = CodecTestHelpers.pngHeader(
            width: 16, height: 16,
            rest: CodecTestHelpers.pngChunk("IDAT", Array(compressed.prefix(Int(length))))
                + CodecTestHelpers.pngChunk("IEND", []))
        #expect(png.count < 64 << 10)
        guard case .corrupt(let detail)? = error(png) else {
            Issue.record("an inflation bomb: \(String(describing: error(png)))")
            return
        }
        #expect(detail.contains("more memory than its declared size allows"), "\(detail)")
    }

    @Test("a Huffman table of more than 256 codes (an overflow in stb_image 2.27) is refused before stb_image")
    func oversizedHuffmanTable() throws {
        var jpeg = try JPEGEncoder.encode(CodecTestHelpers.photoCrop)
        let dht = try #require(CodecTestHelpers.offset(ofMarker: 0xC4, in: jpeg))
        // The first table's 16 code counts (after the marker, the length and the class/index byte): 16 × 200.
        jpeg.replaceSubrange((dht + 5)..<(dht + 21), with: [UInt8](repeating: 200, count: 16))
        #expect(
            error(jpeg) == .corrupt("JPEG data is invalid: a Huffman table (DHT) declares 3200 codes; at most 256"))
    }

    @Test("more than 500 scans are refused before decoding; a few repeated scans decode")
    func scanCount() throws {
        let jpeg = try JPEGEncoder.encode(CodecTestHelpers.photoCrop)
        let sos = try #require(CodecTestHelpers.offset(ofMarker: 0xDA, in: jpeg))
        let header = Array(jpeg[..<sos]), scan = Array(jpeg[sos..<(jpeg.count - 2)])
        func repeating(_ count: Int) -> [UInt8] {
            header + (0..<count).flatMap { _ in scan } + [0xFF, 0xD9]
        }
        guard case .corrupt(let detail)? = error(repeating(501)) else {
            Issue.record("501 scans: \(String(describing: error(repeating(501))))")
            return
        }
        #expect(detail.contains("more than 500 scans"), "\(detail)")
        // A baseline scan decoded three times over leaves the same pixels.
        let once = try decoder.decode(jpeg).image.pixels
        #expect(try decoder.decode(repeating(3)).image.pixels == once)
    }

    @Test(
        "damaged JPEG data: truncated when cut, otherwise decoded as MediaPipe would or refused as corrupt",
        arguments: DamagedFiles.JPEGDamage.allCases)
    func damagedJPEG(_ damage: DamagedFiles.JPEGDamage) throws {
        let bird = try CodecTestHelpers.photoBytes("bird.jpg")
        let damaged = try #require(DamagedFiles.jpeg(bird, damage))
        let outcome = Result { () throws(ImageDecodingError) in try decoder.decode(damaged) }
        switch (damage, outcome) {
        case (.truncated, .failure(.truncated(let detail))):
            #expect(detail.contains("stb_image"))
        case (.truncated, _):
            Issue.record("a truncated JPEG: \(outcome)")
        case (_, .failure(.corrupt(let detail))):
            #expect(detail.contains("stb_image"), "\(detail)")
        case (_, .success(let decoded)):
            // stb_image has no strict mode: damage it does not notice is decoded, as MediaPipe decodes it.
            #expect(decoded.image.width == 2000 && decoded.image.height == 1508)
        case (_, .failure(let error)):
            Issue.record("\(damage): unexpected \(error)")
        }
    }

    @Test("PNG CRCs are not checked (stb_image ignores them, as MediaPipe does)")
    func pngCRC() throws {
        let png = try PNGEncoder.encode(CodecTestHelpers.photoCrop)
        var damaged = png
        damaged[29] ^= 0xFF  // inside the IHDR CRC
        #expect(try decoder.decode(damaged).image.pixels == decoder.decode(png).image.pixels)
        #expect(throws: ImageDecodingError.self) { try ImageDecoder().decode(damaged) }
    }

    @Test("random damage never crashes")
    func randomDamage() throws {
        let jpeg = try JPEGEncoder.encode(CodecTestHelpers.photoCrop, exifOrientation: 6)
        let progressive = try CodecTestHelpers.photoBytes("dandelion.jpg")
        let png = try PNGEncoder.encode(CodecTestHelpers.photoCrop)
        let outcomes = CodecTestHelpers.decodeRandomlyDamaged(
            [(jpeg, 200), (png, 200), (progressive, 60)], with: decoder, seed: 2025)
        #expect(outcomes.decoded > 0 && outcomes.failed > 0)
    }

    @Test("MediaPipe's EXIF reading: JPEG orientations 1...8 applied, a PNG's eXIf chunk ignored")
    func orientation() throws {
        for orientation in ImageOrientation.allCases {
            let jpeg = try JPEGEncoder.encode(CodecTestHelpers.photoCrop, exifOrientation: orientation.exifValue)
            #expect(try decoder.decode(jpeg).orientation == orientation)
        }
        for value in [0, 9, 65535] {
            let jpeg = try JPEGEncoder.encode(CodecTestHelpers.photoCrop, exifOrientation: value)
            #expect(try decoder.decode(jpeg).orientation == .up)
        }
        let tiff: [UInt8] = [0x49, 0x49, 42, 0, 8, 0, 0, 0, 1, 0, 0x12, 0x01, 3, 0, 1, 0, 0, 0, 6, 0, 0, 0, 0, 0, 0, 0]
        let png = CodecTestHelpers.insertingChunk(
            CodecTestHelpers.pngChunk("eXIf", tiff), into: try PNGEncoder.encode(CodecTestHelpers.photoCrop))
        #expect(try ImageDecoder().decode(png).orientation == .right)
        #expect(try decoder.decode(png).orientation == .up)
    }

    @Test("hostile EXIF offsets and counts: no crash, no orientation")
    func hostileEXIF() throws {
        let plain = try JPEGEncoder.encode(CodecTestHelpers.photoCrop)
        func withEXIF(_ tiff: [UInt8]) -> [UInt8] {
            let payload = Array("Exif".utf8) + [0, 0] + tiff
            let length = payload.count + 2
            return [0xFF, 0xD8, 0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + payload + plain.dropFirst(2)
        }
        let entry: [UInt8] = [0x12, 0x01, 3, 0, 1, 0, 0, 0, 6, 0, 0, 0]
        let hostile: [[UInt8]] = [
            [0x49, 0x49, 42, 0, 0xFF, 0xFF, 0xFF, 0xFF] + [UInt8](repeating: 0, count: 8),  // IFD offset wraps
            [0x49, 0x49, 42, 0, 8, 0, 0, 0, 0xFF, 0xFF] + entry,  // 65535 entries
            // The orientation, then an EXIF sub-IFD at offset 2^32 - 6 (easyexif's sum wraps) and a GPS one far out.
            [0x49, 0x49, 42, 0, 8, 0, 0, 0, 3, 0] + entry + [0x69, 0x87, 4, 0, 1, 0, 0, 0, 0xFA, 0xFF, 0xFF, 0xFF]
                + [0x25, 0x88, 4, 0, 1, 0, 0, 0, 0x00, 0x00, 0x00, 0x70] + [0, 0, 0, 0],
            [0x4D, 0x4D, 0, 42, 0, 0, 0, 8, 0, 1, 0x01, 0x12, 0, 3, 0xFF, 0xFF, 0xFF, 0xFF, 0, 0, 0, 0],  // 2^32 SHORTs
        ]
        for (index, tiff) in hostile.enumerated() {
            let decoded = try decoder.decode(withEXIF(tiff))
            #expect(decoded.image.width == 64 && decoded.orientation == .up, "case \(index): \(decoded.orientation)")
        }
    }
}
