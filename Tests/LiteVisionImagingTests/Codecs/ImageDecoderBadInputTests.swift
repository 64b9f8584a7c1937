import Foundation
import Testing
import LiteVisionImaging
import LiteVisionTestSupport

/// Damaged, foreign, empty and oversized inputs: clear errors, never a crash.
@Suite struct ImageDecoderBadInputTests {
    let decoder = ImageDecoder()

    @Test func emptyDataIsEmpty() throws {
        #expect(throws: ImageDecodingError.empty) { try decoder.decode([UInt8]()) }
        #expect(throws: ImageDecodingError.empty) { try decoder.inspect([UInt8]()) }
        let directory = TestData.temporaryDirectory("codecs")
        let path = directory.appendingPathComponent("empty.jpg").path
        #expect(FileManager.default.createFile(atPath: path, contents: Data()))
        #expect(throws: ImageDecodingError.empty) { try decoder.decodeFile(atPath: path) }
    }

    @Test func missingFileSaysSo() {
        let path = "/nonexistent/litevision/photo.jpg"
        #expect(throws: ImageDecodingError.fileNotReadable(path: path, reason: "no such file")) {
            try decoder.decodeFile(atPath: path)
        }
        let error = ImageDecodingError.fileNotReadable(path: path, reason: "no such file")
        #expect(error.description.contains(path) && error.description.contains("no such file"))
    }

    @Test func directoryIsNotAnImage() {
        let path = TestData.temporaryDirectory("codecs").path
        #expect(throws: ImageDecodingError.fileNotReadable(path: path, reason: "it is a directory")) {
            try decoder.decodeFile(atPath: path)
        }
    }

    /// The kind named by an `.unsupportedFormat` error, or nil for any other outcome.
    func unsupportedKind(_ bytes: [UInt8]) -> String? {
        do {
            _ = try decoder.decode(bytes)
            return nil
        } catch {
            if case .unsupportedFormat(let kind) = error { return kind }
            return nil
        }
    }

    @Test func textFileNamedJPGIsUnsupported() throws {
        let path = TestData.temporaryDirectory("codecs").appendingPathComponent("page.jpg").path
        try "<!DOCTYPE html>\n<html><body>404 Not Found</body></html>\n".write(
            toFile: path, atomically: true, encoding: .utf8)
        do {
            _ = try decoder.decodeFile(atPath: path)
            Issue.record("a text file decoded")
        } catch {
            guard case .unsupportedFormat(let kind) = error else { Issue.record("wrong error \(error)"); return }
            #expect(kind.contains("text") && kind.contains("<!DOCTYPE html>"))
            #expect(error.description.contains("JPEG and PNG"))
        }
    }

    @Test func otherFormatsAreNamed() {
        #expect(
            unsupportedKind(Array("GIF89a".utf8) + [0x01, 0x00, 0x01, 0x00, 0x80, 0x00, 0x00])?.contains("GIF") == true)
        #expect(
            unsupportedKind(Array("RIFF".utf8) + [0x24, 0, 0, 0] + Array("WEBPVP8 ".utf8) + [0, 0])?.contains("WebP")
                == true)
        #expect(unsupportedKind([0, 0, 0, 0x1C] + Array("ftypheic".utf8) + [0, 0, 0, 0])?.contains("HEIF") == true)
        #expect(unsupportedKind(Array("II*\0".utf8) + [8, 0, 0, 0])?.contains("TIFF") == true)
        #expect(
            unsupportedKind(
                Array("BM".utf8) + [UInt8](repeating: 0, count: 12) + [40, 0, 0, 0] + [UInt8](repeating: 0, count: 20))?
                .contains("BMP") == true)
        #expect(
            throws: ImageDecodingError.corrupt("JPEG data starts with an SOI marker (FF D8) but no marker follows it")
        ) {
            try decoder.decode([0xFF, 0xD8, 0x00, 0x00])
        }
        let unknown = unsupportedKind([0x00, 0x01, 0x02, 0x03, 0xF0, 0xF1])
        #expect(unknown?.contains("unknown") == true && unknown?.contains("00 01 02 03 F0 F1") == true)
    }

    @Test func truncatedJPEGIsAnError() throws {
        let bird = try CodecTestHelpers.photoBytes("bird.jpg")
        let half = Array(bird.prefix(bird.count / 2))
        do {
            _ = try decoder.decode(half)
            Issue.record("half of bird.jpg decoded without error")
        } catch {
            guard case .truncated(let detail) = error else { Issue.record("wrong error \(error)"); return }
            #expect(detail.contains("JPEG"))
        }
        // Also when only DCT-scaled, and for a progressive file.
        #expect(throws: ImageDecodingError.self) { try decoder.decode(half, minimumSize: (224, 224)) }
        let progressive = try CodecTestHelpers.photoBytes("dandelion.jpg")
        #expect(isTruncated { try decoder.decode(Array(progressive.prefix(progressive.count * 3 / 4))) })
    }

    @Test func jpegCutInItsHeaderIsTruncated() throws {
        let bird = try CodecTestHelpers.photoBytes("bird.jpg")
        for length in [1, 2, 3, 4, 20, 200, 600] {
            #expect(isTruncated { try decoder.decode(Array(bird.prefix(length))) }, "first \(length) bytes")
        }
    }

    @Test func truncatedPNGIsAnError() throws {
        let png = try PNGEncoder.encode(CodecTestHelpers.photoCrop)
        for length in [5, 20, 40, png.count / 2, png.count - 13] {
            #expect(
                isTruncated { try decoder.decode(Array(png.prefix(length))) }, "first \(length) of \(png.count) bytes")
        }
    }

    func isTruncated(_ body: () throws -> DecodedImage) -> Bool {
        do {
            _ = try body()
            return false
        } catch {
            if case .truncated? = error as? ImageDecodingError { return true }
            Issue.record("expected truncated, got \(error)")
            return false
        }
    }

    @Test func randomDamageNeverCrashes() throws {
        let jpeg = try JPEGEncoder.encode(CodecTestHelpers.photoCrop, exifOrientation: 3)
        let png = try PNGEncoder.encode(CodecTestHelpers.photoCrop)
        let outcomes = CodecTestHelpers.decodeRandomlyDamaged([(jpeg, 300), (png, 300)], with: decoder, seed: 2024)
        #expect(outcomes.decoded > 0 && outcomes.failed > 0)
    }

    @Test func invalidJPEGHeaderIsCorrupt() throws {
        var jpeg = try JPEGEncoder.encode(CodecTestHelpers.photoCrop)
        let sof = try #require(CodecTestHelpers.offset(ofMarker: 0xC0, in: jpeg))
        jpeg[sof + 4] = 5  // sample precision 5 bits: not a JPEG precision
        do {
            _ = try decoder.decode(jpeg)
            Issue.record("decoded a JPEG with 5-bit precision")
        } catch {
            guard case .corrupt(let detail) = error else { Issue.record("wrong error \(error)"); return }
            #expect(detail.contains("JPEG") && detail.contains("libjpeg-turbo"))
        }
    }

    @Test func pngWithBadCRCIsCorrupt() throws {
        var png = try PNGEncoder.encode(CodecTestHelpers.photoCrop)
        png[29] ^= 0xFF  // inside the IHDR CRC
        do {
            _ = try decoder.decode(png)
            Issue.record("decoded a PNG with a bad IHDR CRC")
        } catch {
            guard case .corrupt(let detail) = error else { Issue.record("wrong error \(error)"); return }
            #expect(detail.contains("PNG") && detail.contains("CRC"))
        }
    }

    @Test func zeroSizedPNGIsInvalid() {
        let png = CodecTestHelpers.pngHeader(width: 0, height: 10, rest: CodecTestHelpers.pngChunk("IEND", []))
        #expect(throws: ImageDecodingError.invalidDimensions(width: 0, height: 10)) { try decoder.decode(png) }
    }

    @Test func hugeDeclaredJPEGIsRefusedFromTheHeader() throws {
        // A small real JPEG whose SOF0 claims 60000x60000 (3.6 gigapixels, 10.8 GB of RGB).
        var jpeg = try JPEGEncoder.encode(CodecTestHelpers.photoCrop, quality: 80)
        let sof = try #require(CodecTestHelpers.offset(ofMarker: 0xC0, in: jpeg))
        jpeg.replaceSubrange((sof + 5)..<(sof + 9), with: [0xEA, 0x60, 0xEA, 0x60])
        let start = ContinuousClock.now
        #expect(throws: ImageDecodingError.tooLarge(width: 60000, height: 60000, limit: 100_000_000)) {
            try decoder.decode(jpeg)
        }
        #expect(ContinuousClock.now - start < .seconds(1))
        #expect(try decoder.inspect(jpeg).width == 60000)
        let message = ImageDecodingError.tooLarge(width: 60000, height: 60000, limit: 100_000_000).description
        #expect(message.contains("60000x60000") && message.contains("100000000"))
    }

    @Test func hugeDeclaredPNGIsRefusedFromTheHeader() {
        let png = CodecTestHelpers.pngHeader(
            width: 60000, height: 60000,
            rest: CodecTestHelpers.pngChunk("IDAT", [0x78, 0x9C]))
        #expect(throws: ImageDecodingError.tooLarge(width: 60000, height: 60000, limit: 100_000_000)) {
            try decoder.decode(png)
        }
        #expect(throws: ImageDecodingError.tooLarge(width: 60000, height: 60000, limit: 100_000_000)) {
            try decoder.decode(png, minimumSize: (1, 1))
        }
        let info = png.withUnsafeBytes { try? decoder.inspect($0) }
        #expect(info == ImageHeaderInfo(format: .png, width: 60000, height: 60000, orientation: .up))
    }

    @Test func theLimitIsConfigurable() throws {
        #expect(ImageDecoder.defaultMaxPixelCount == 100_000_000)
        let bird = try CodecTestHelpers.photoBytes("bird.jpg")  // 2000x1508 = 3,016,000 pixels
        #expect(throws: ImageDecodingError.tooLarge(width: 2000, height: 1508, limit: 3_015_999)) {
            try ImageDecoder(maxPixelCount: 3_015_999).decode(bird)
        }
        #expect(try ImageDecoder(maxPixelCount: 3_016_000).decode(bird).image.width == 2000)
        // The limit is on the stored size, even when decoding at 1/8.
        #expect(throws: ImageDecodingError.self) {
            try ImageDecoder(maxPixelCount: 1_000_000).decode(bird, minimumSize: (100, 100))
        }
    }

    @Test func messagesAreSpecific() {
        #expect(ImageDecodingError.empty.description.contains("0 bytes"))
        #expect(ImageDecodingError.unsupportedFormat("a GIF image").description.contains("GIF"))
        #expect(ImageDecodingError.invalidDimensions(width: 0, height: 5).description.contains("0x5"))
        #expect(ImageDecodingError.truncated("JPEG data ends early").description.contains("JPEG"))
    }
}
