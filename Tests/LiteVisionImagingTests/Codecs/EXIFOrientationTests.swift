import LiteVisionGeometry
import LiteVisionTestSupport
import Testing
import LiteVisionImaging

/// EXIF orientation: written by `JPEGEncoder`, found by `EXIFReader` and `ImageDecoder`.
@Suite struct EXIFOrientationTests {
    static let photo = CodecTestHelpers.photoCrop

    @Test(arguments: 1...8)
    func decodesEachEXIFOrientation(value: Int) throws {
        let jpeg = try JPEGEncoder.encode(Self.photo, exifOrientation: value)
        let expected = try #require(ImageOrientation(exifValue: value))
        let decoded = try ImageDecoder().decode(jpeg)
        #expect(decoded.orientation == expected)
        // The decoder reports the orientation; it does not turn the pixels.
        #expect(decoded.image.width == 64 && decoded.image.height == 48)
        #expect(jpeg.withUnsafeBytes { EXIFReader.orientation(inJPEG: $0) } == expected)
        #expect(try ImageDecoder().inspect(jpeg).orientation == expected)
        #expect(try ImageDecoder().inspect(jpeg).uprightSize == (expected.swapsDimensions ? (48, 64) : (64, 48)))
    }

    @Test func exifSegmentComesRightAfterSOIAndKeepsThePixels() throws {
        let plain = try JPEGEncoder.encode(Self.photo)
        let tagged = try JPEGEncoder.encode(Self.photo, exifOrientation: 6)
        #expect(Array(tagged.prefix(4)) == [0xFF, 0xD8, 0xFF, 0xE1])
        #expect(Array(tagged[6..<12]) == Array("Exif\0\0".utf8))
        #expect(Array(tagged[(tagged.count - plain.count + 2)...]) == Array(plain[2...]))
        #expect(try ImageDecoder().decode(tagged).image.pixels == ImageDecoder().decode(plain).image.pixels)
    }

    @Test func knownOrientationIsNotParsedAgain() throws {
        // `VisionImage` reads a file's EXIF orientation once, when it is made, and hands it to the decoder:
        // the decoder then reports it as given instead of parsing the EXIF data a second time.
        let jpeg = try JPEGEncoder.encode(Self.photo, exifOrientation: 6)
        let fromFile = try #require(ImageOrientation(exifValue: 6))
        #expect(fromFile != .down)
        let given = try ImageDecoder().decode(jpeg, orientation: .down)
        #expect(given.orientation == .down)
        #expect(try given.image.pixels == ImageDecoder().decode(jpeg).image.pixels)
        #expect(try ImageDecoder().decode(jpeg).orientation == fromFile)
        let png = try PNGEncoder.encode(Self.photo)
        #expect(try ImageDecoder().decode(png, orientation: .left).orientation == .left)
    }

    @Test func jpegWithoutEXIFIsUp() throws {
        let jpeg = try JPEGEncoder.encode(Self.photo)
        #expect(jpeg.withUnsafeBytes { EXIFReader.orientation(inJPEG: $0) } == nil)
        #expect(try ImageDecoder().decode(jpeg).orientation == .up)
    }

    @Test(arguments: [0, 9, 255, 65535])
    func outOfRangeValuesAreUp(value: Int) throws {
        let jpeg = try JPEGEncoder.encode(Self.photo, exifOrientation: value)
        #expect(jpeg.withUnsafeBytes { EXIFReader.orientation(inJPEG: $0) } == nil)
        #expect(try ImageDecoder().decode(jpeg).orientation == .up)
    }

    @Test func littleEndianTIFFIsRead() {
        // "II", 42, IFD0 at 8; one entry: tag 0x0112, SHORT, count 1, value 6; no next IFD.
        let tiff: [UInt8] = [
            0x49, 0x49, 0x2A, 0x00, 0x08, 0x00, 0x00, 0x00, 0x01, 0x00,
            0x12, 0x01, 0x03, 0x00, 0x01, 0x00, 0x00, 0x00, 0x06, 0x00, 0x00, 0x00,
            0x00, 0x00, 0x00, 0x00,
        ]
        #expect(tiff.withUnsafeBytes { EXIFReader.orientation(inEXIF: $0) } == .right)
    }

    @Test func orientationAfterOtherTagsIsFound() {
        // Big-endian IFD0 with three entries; the orientation (8 = .left) is the last one.
        var tiff: [UInt8] = [0x4D, 0x4D, 0x00, 0x2A, 0x00, 0x00, 0x00, 0x08, 0x00, 0x03]
        tiff += [0x01, 0x0F, 0x00, 0x02, 0x00, 0x00, 0x00, 0x04, 0x41, 0x42, 0x43, 0x00]  // Make "ABC"
        tiff += [0x01, 0x1A, 0x00, 0x05, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x40]  // XResolution
        tiff += [0x01, 0x12, 0x00, 0x03, 0x00, 0x00, 0x00, 0x01, 0x00, 0x08, 0x00, 0x00]  // Orientation
        tiff += [0x00, 0x00, 0x00, 0x00]
        #expect(tiff.withUnsafeBytes { EXIFReader.orientation(inEXIF: $0) } == .left)
    }

    /// `plain` with an APP1 segment of the given payload inserted after SOI.
    static func withAPP1(_ payload: [UInt8], declaredLength: Int? = nil, in plain: [UInt8]) -> [UInt8] {
        let length = declaredLength ?? payload.count + 2
        return [0xFF, 0xD8, 0xFF, 0xE1, UInt8((length >> 8) & 0xFF), UInt8(length & 0xFF)] + payload + plain[2...]
    }

    @Test func garbageAPP1IsUpAndStillDecodes() throws {
        let plain = try JPEGEncoder.encode(Self.photo)
        let cases: [[UInt8]] = [
            Array("Exif\0\0".utf8) + [0x12, 0x34, 0x56, 0x78, 0x9A],  // no TIFF header
            Array("Exif\0\0".utf8) + [0x4D, 0x4D, 0x00, 0x2A, 0xFF, 0xFF, 0xFF, 0xF0],  // IFD0 far away
            Array("Exif\0\0".utf8) + [0x4D, 0x4D, 0x00, 0x2A, 0x00, 0x00, 0x00, 0x08, 0xFF, 0xFF],  // 65535 entries
            Array("Exif\0\0".utf8),  // empty TIFF
            Array("Exif".utf8),  // short header
            Array("http://ns.adobe.com/xap/1.0/\0<x:xmpmeta/>".utf8),  // XMP, not EXIF
        ]
        for payload in cases {
            let jpeg = Self.withAPP1(payload, in: plain)
            #expect(jpeg.withUnsafeBytes { EXIFReader.orientation(inJPEG: $0) } == nil)
            let decoded = try ImageDecoder().decode(jpeg)
            #expect(decoded.orientation == .up && decoded.image.width == 64)
        }
    }

    @Test func segmentLengthPastTheEndIsHandled() {
        // An APP1 claiming 60000 bytes in a file of a few dozen: the reader must not follow it.
        let bytes: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE1, 0xEA, 0x60] + Array("Exif\0\0MM\0*".utf8)
        #expect(bytes.withUnsafeBytes { EXIFReader.orientation(inJPEG: $0) } == nil)
        let tooShort: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE1, 0x00, 0x01]  // length below 2
        #expect(tooShort.withUnsafeBytes { EXIFReader.orientation(inJPEG: $0) } == nil)
    }

    @Test func everyPrefixAndRandomDamageNeverCrash() throws {
        let jpeg = try JPEGEncoder.encode(Self.photo, exifOrientation: 6)
        let header = Array(jpeg.prefix(64))
        for length in 0...header.count {
            let prefix = Array(header.prefix(length))
            let found = prefix.withUnsafeBytes { EXIFReader.orientation(inJPEG: $0) }
            // The whole segment (2 + 2 + 34 bytes) is needed to see the value.
            #expect(found == (length >= 38 ? .right : nil), "prefix of \(length) bytes")
        }
        var generator = SeededGenerator(seed: 42)
        for _ in 0..<3000 {
            var damaged = header
            for _ in 0..<Int.random(in: 1...4, using: &generator) {
                damaged[Int.random(in: 2..<damaged.count, using: &generator)] = UInt8.random(
                    in: 0...255, using: &generator)
            }
            let found = damaged.withUnsafeBytes { EXIFReader.orientation(inJPEG: $0) }
            #expect(found == nil || ImageOrientation.allCases.contains(found!))
        }
    }

    @Test func pngEXIfChunkIsRead() throws {
        let png = try PNGEncoder.encode(Self.photo)
        let tiff: [UInt8] = [
            0x4D, 0x4D, 0x00, 0x2A, 0x00, 0x00, 0x00, 0x08, 0x00, 0x01,
            0x01, 0x12, 0x00, 0x03, 0x00, 0x00, 0x00, 0x01, 0x00, 0x03, 0x00, 0x00,
            0x00, 0x00, 0x00, 0x00,
        ]
        let tagged = CodecTestHelpers.insertingChunk(CodecTestHelpers.pngChunk("eXIf", tiff), into: png)
        let decoded = try ImageDecoder().decode(tagged)
        #expect(decoded.orientation == .down)
        #expect(decoded.image.pixels == Self.photo.pixels)
        #expect(try ImageDecoder().decode(png).orientation == .up)
    }
}
