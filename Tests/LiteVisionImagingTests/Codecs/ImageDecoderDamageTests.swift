import Foundation
import LiteVisionImaging
import LiteVisionTestSupport
import Testing

/// Damaged JPEG and PNG data: an error by default (strict), decoded as far as it goes when the decoder allows
/// damaged data (issue 9: corrupt JPEGs used to decode "successfully" as a partly grey picture).
@Suite("Image decoding: damaged data, strict and lenient")
struct ImageDecoderDamageTests {
    static let strict = ImageDecoder()
    static let lenient = ImageDecoder(allowsDamagedData: true)

    /// bird.jpg (baseline) damaged as `damage` says.
    static func damagedBird(_ damage: DamagedFiles.JPEGDamage) throws -> [UInt8] {
        try #require(DamagedFiles.jpeg(CodecTestHelpers.photoBytes("bird.jpg"), damage))
    }

    /// The error `decode` throws, or `nil` when it decodes.
    static func error(_ decode: () throws(ImageDecodingError) -> DecodedImage) -> ImageDecodingError? {
        do {
            _ = try decode()
            return nil
        } catch {
            return error
        }
    }

    @Test("damaged JPEG: an error by default", arguments: DamagedFiles.JPEGDamage.allCases)
    func strictJPEG(_ damage: DamagedFiles.JPEGDamage) throws {
        let bytes = try Self.damagedBird(damage)
        let error = try #require(Self.error { () throws(ImageDecodingError) in try Self.strict.decode(bytes) })
        switch (damage, error) {
        case (.truncated, .truncated(let detail)):
            #expect(detail.contains("Premature end of JPEG file"))
        case (.markerInScan, .corrupt(let detail)), (.secondFrameHeader, .corrupt(let detail)):
            #expect(detail.contains("premature end of data segment"), "\(detail)")
        case (.garbageInScan, .corrupt(let detail)):
            #expect(detail.contains("Corrupt JPEG data"), "\(detail)")
        default:
            Issue.record("\(damage): unexpected error \(error)")
        }
        #expect(error.description.contains("libjpeg-turbo"))
        // Also when decoding at a reduced scale.
        #expect(throws: ImageDecodingError.self) { try Self.strict.decode(bytes, minimumSize: (224, 224)) }
    }

    @Test(
        "damaged JPEG: decoded, with a warning, by a lenient decoder",
        arguments: [DamagedFiles.JPEGDamage.markerInScan, .garbageInScan, .truncated])
    func lenientJPEG(_ damage: DamagedFiles.JPEGDamage) throws {
        let original = try Self.strict.decode(CodecTestHelpers.photoBytes("bird.jpg")).image
        let decoded = try Self.lenient.decode(try Self.damagedBird(damage))
        #expect(decoded.image.width == 2000 && decoded.image.height == 1508)
        #expect(decoded.warning?.isEmpty == false)
        #expect(decoded.image.pixels != original.pixels)
        // The top of the picture, before the damage, is intact.
        let top = CodecTestHelpers.crop(decoded.image, x: 0, y: 0, width: 2000, height: 200)
        let originalTop = CodecTestHelpers.crop(original, x: 0, y: 0, width: 2000, height: 200)
        #expect(CodecTestHelpers.meanAbsoluteDifference(top, originalTop) == 0)
    }

    @Test("a second SOF inside the compressed data is fatal to libjpeg-turbo: an error even when lenient")
    func secondFrameHeaderIsFatal() throws {
        // libjpeg-turbo first warns (the marker ends the data segment early), then fails on the second SOF;
        // its error code still says "warning", which used to be taken for a recoverable problem.
        let bytes = try Self.damagedBird(.secondFrameHeader)
        let error = Self.error { () throws(ImageDecodingError) in try Self.lenient.decode(bytes) }
        guard case .corrupt(let detail)? = error else {
            Issue.record("expected corrupt, got \(String(describing: error))")
            return
        }
        #expect(detail.contains("two SOF markers") && detail.contains("premature end of data segment"), "\(detail)")
    }

    @Test("stray bytes before a header marker: a warning libjpeg-turbo recovers from, refused unless lenient")
    func extraneousHeaderBytes() throws {
        let bird = try CodecTestHelpers.photoBytes("bird.jpg")
        let sof = try #require(CodecTestHelpers.offset(ofMarker: 0xC0, in: bird))
        let padded = Array(bird[..<sof]) + [0x00, 0x11, 0x22] + Array(bird[sof...])
        guard
            case .corrupt(let detail)? = Self.error({ () throws(ImageDecodingError) in try Self.strict.decode(padded) })
        else {
            Issue.record("strict decoding accepted stray bytes")
            return
        }
        #expect(detail.contains("extraneous bytes"))
        let decoded = try Self.lenient.decode(padded)
        #expect(decoded.warning?.contains("extraneous bytes") == true)
        #expect(decoded.image.pixels == (try Self.strict.decode(bird)).image.pixels)
        // Cut short as well: still truncated (the earlier warning hides "Premature end", the missing EOI tells).
        let half = Array(padded.prefix(padded.count / 2))
        guard case .truncated? = Self.error({ () throws(ImageDecodingError) in try Self.strict.decode(half) }) else {
            Issue.record("a cut-short file with stray bytes is not reported truncated")
            return
        }
    }

    @Test("every shared photo decodes strictly, without a warning")
    func sharedPhotosAreClean() throws {
        for name in TestData.imageNames {
            let decoded = try Self.strict.decode(CodecTestHelpers.photoBytes(name))
            #expect(decoded.warning == nil, "\(name): \(decoded.warning ?? "")")
        }
    }

    // MARK: PNG

    /// `png` with the CRC of its first `type` chunk inverted.
    static func corruptingCRC(of type: String, in png: [UInt8]) throws -> [UInt8] {
        var position = 8
        while position + 12 <= png.count {
            let length = png[position..<(position + 4)].reduce(0) { $0 << 8 | Int($1) }
            if Array(png[(position + 4)..<(position + 8)]) == Array(type.utf8) {
                var damaged = png
                damaged[position + 8 + length] ^= 0xFF
                return damaged
            }
            position += 12 + length
        }
        throw CocoaError(.fileReadCorruptFile)
    }

    @Test("a PNG CRC error in a critical chunk is an error, strict or lenient", arguments: ["IHDR", "IDAT", "IEND"])
    func criticalCRC(_ type: String) throws {
        let png = try Self.corruptingCRC(of: type, in: PNGEncoder.encode(CodecTestHelpers.photoCrop))
        guard case .corrupt(let detail)? = Self.error({ () throws(ImageDecodingError) in try Self.strict.decode(png) })
        else {
            Issue.record("\(type) with a bad CRC decoded")
            return
        }
        #expect(detail.contains(type) && detail.contains("CRC"), "\(detail)")
        if type != "IEND" {
            #expect(throws: ImageDecodingError.self) { try Self.lenient.decode(png) }
        }
    }

    @Test("a PNG CRC error in an ancillary chunk is a warning: the chunk is ignored")
    func ancillaryCRC() throws {
        let plain = try PNGEncoder.encode(CodecTestHelpers.photoCrop)
        let text = CodecTestHelpers.pngChunk("tEXt", Array("Comment\u{0}hello".utf8))
        let png = try Self.corruptingCRC(of: "tEXt", in: CodecTestHelpers.insertingChunk(text, into: plain))
        let decoded = try Self.strict.decode(png)
        #expect(decoded.warning?.contains("CRC") == true)
        #expect(decoded.image.pixels == (try Self.strict.decode(plain)).image.pixels)
    }

    @Test("a PNG cut inside its image data, or without IEND, is truncated")
    func truncatedPNG() throws {
        let png = try PNGEncoder.encode(CodecTestHelpers.photoCrop)
        let idatEnd = png.count - 12  // IEND is the last 12 bytes
        for (length, lenientDecodes) in [(png.count / 2, false), (idatEnd - 2, false), (idatEnd, true)] {
            let cut = Array(png.prefix(length))
            guard case .truncated? = Self.error({ () throws(ImageDecodingError) in try Self.strict.decode(cut) }) else {
                Issue.record("the first \(length) of \(png.count) bytes are not reported truncated")
                continue
            }
            if lenientDecodes {
                let decoded = try Self.lenient.decode(cut)
                #expect(decoded.warning?.contains("IEND") == true)
            } else {
                #expect(throws: ImageDecodingError.self) { try Self.lenient.decode(cut) }
            }
        }
    }
}
