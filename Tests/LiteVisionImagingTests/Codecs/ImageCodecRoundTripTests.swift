import Testing
import LiteVisionImaging
import LiteVisionTestSupport

/// Encoding with `PNGEncoder` / `JPEGEncoder` and decoding back.
@Suite struct ImageCodecRoundTripTests {
    static let photo = CodecTestHelpers.photoCrop

    @Test func pngRoundTripIsLossless() throws {
        let png = try PNGEncoder.encode(Self.photo)
        #expect(Array(png.prefix(8)) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        let decoded = try ImageDecoder().decode(png)
        #expect(decoded.format == .png && decoded.image.width == 64 && decoded.image.height == 48)
        #expect(decoded.image.pixels == Self.photo.pixels)
        #expect(decoded.warning == nil)
    }

    @Test func pngOfAWholePhotoRoundTrips() throws {
        let photo = try ImageDecoder().decodeFile(atPath: TestData.image("tulips.jpeg")).image
        let decoded = try ImageDecoder().decode(PNGEncoder.encode(photo))
        #expect(decoded.image.pixels == photo.pixels)
    }

    @Test func pngAlphaIsDroppedNotComposited() throws {
        // RGBA with varying alpha, including fully transparent pixels: the colour must survive as is.
        var rgba: [UInt8] = []
        for (i, byte) in Self.photo.pixels.enumerated() {
            rgba.append(byte)
            if i % 3 == 2 { rgba.append(UInt8((i / 3) % 256)) }
        }
        let image = ImageBuffer(width: 64, height: 48, format: .rgba8, pixels: rgba)
        let decoded = try ImageDecoder().decode(PNGEncoder.encode(image))
        #expect(decoded.image.format == .rgb8 && decoded.image.pixels == Self.photo.pixels)
    }

    @Test func pngBGRAIsWrittenAsRGBA() throws {
        var bgra: [UInt8] = []
        for i in stride(from: 0, to: Self.photo.pixels.count, by: 3) {
            bgra += [Self.photo.pixels[i + 2], Self.photo.pixels[i + 1], Self.photo.pixels[i], 255]
        }
        let image = ImageBuffer(width: 64, height: 48, format: .bgra8, pixels: bgra)
        #expect(try ImageDecoder().decode(PNGEncoder.encode(image)).image.pixels == Self.photo.pixels)
    }

    @Test func pngGrayBecomesRGB() throws {
        let gray = (0..<(32 * 8)).map { UInt8($0 % 256) }
        let image = ImageBuffer(width: 32, height: 8, format: .gray8, pixels: gray)
        let decoded = try ImageDecoder().decode(PNGEncoder.encode(image))
        #expect(decoded.image.pixels == gray.flatMap { [$0, $0, $0] })
    }

    @Test func paddedRowsAreHonoured() throws {
        // 64x48 RGB with 10 bytes of padding per row.
        var padded: [UInt8] = []
        for y in 0..<48 {
            padded += Self.photo.pixels[(y * 192)..<((y + 1) * 192)] + [UInt8](repeating: 0xAB, count: 10)
        }
        let image = ImageBuffer(width: 64, height: 48, format: .rgb8, bytesPerRow: 202, pixels: padded)
        #expect(try ImageDecoder().decode(PNGEncoder.encode(image)).image.pixels == Self.photo.pixels)
        let jpeg = try ImageDecoder().decode(JPEGEncoder.encode(image, quality: 100)).image
        #expect(CodecTestHelpers.meanAbsoluteDifference(jpeg, Self.photo) < 1.5)
    }

    @Test(arguments: [(100, 1.5), (95, 2.5), (75, 6.0)])
    func jpegRoundTripIsClose(quality: Int, tolerance: Double) throws {
        let jpeg = try JPEGEncoder.encode(Self.photo, quality: quality)
        #expect(Array(jpeg.prefix(3)) == [0xFF, 0xD8, 0xFF] && Array(jpeg.suffix(2)) == [0xFF, 0xD9])
        let decoded = try ImageDecoder().decode(jpeg)
        #expect(decoded.image.width == 64 && decoded.image.height == 48 && decoded.orientation == .up)
        let difference = CodecTestHelpers.meanAbsoluteDifference(decoded.image, Self.photo)
        #expect(difference > 0 && difference < tolerance, "quality \(quality): mean abs diff \(difference)")
    }

    @Test func grayJPEGDecodesToEqualChannels() throws {
        var gray: [UInt8] = []
        for i in stride(from: 0, to: Self.photo.pixels.count, by: 3) { gray.append(Self.photo.pixels[i + 1]) }
        let jpeg = try JPEGEncoder.encode(ImageBuffer(width: 64, height: 48, format: .gray8, pixels: gray))
        let decoded = try ImageDecoder().decode(jpeg).image
        var maxDifference = 0
        for i in 0..<(64 * 48) {
            let r = decoded.pixels[i * 3], g = decoded.pixels[i * 3 + 1], b = decoded.pixels[i * 3 + 2]
            #expect(r == g && g == b)
            maxDifference = max(maxDifference, abs(Int(g) - Int(gray[i])))
        }
        #expect(maxDifference < 16)
    }

    @Test func cmykJPEGIsConvertedLikePillow() throws {
        // Stored CMYK samples in Adobe polarity (255 = no ink): c = 255 - cyan, etc.
        // Flat colour patches so that JPEG loss is negligible; expected RGB from Pillow's formula
        // R = k - k * (255 - c) / 255 (its CMYK;I unpacking followed by its cmyk2rgb).
        let patches: [([UInt8], [UInt8])] = [
            ([255, 255, 255, 255], [255, 255, 255]),  // no ink: white
            ([255, 255, 255, 0], [0, 0, 0]),  // full black
            ([0, 255, 255, 255], [0, 255, 255]),  // full cyan
            ([255, 128, 255, 200], [200, 100, 200]),  // half magenta on grey
        ]
        for (cmyk, rgb) in patches {
            let pixels = [[UInt8]](repeating: cmyk, count: 16 * 16).flatMap { $0 }
            let jpeg = try JPEGEncoder.encodeCMYK(pixels, width: 16, height: 16, quality: 100)
            let decoded = try ImageDecoder().decode(jpeg).image
            #expect(decoded.format == .rgb8 && decoded.pixels.count == 16 * 16 * 3)
            let center = CodecTestHelpers.pixel(decoded, x: 8, y: 8)
            for c in 0..<3 {
                #expect(abs(Int(center[c]) - Int(rgb[c])) <= 2, "CMYK \(cmyk) -> \(center), expected \(rgb)")
            }
        }
    }

    @Test func oneByOneImagesDecode() throws {
        let pixel = ImageBuffer(width: 1, height: 1, format: .rgb8, pixels: [200, 30, 90])
        let png = try ImageDecoder().decode(PNGEncoder.encode(pixel))
        #expect(png.image.width == 1 && png.image.height == 1 && png.image.pixels == [200, 30, 90])
        let jpeg = try ImageDecoder().decode(JPEGEncoder.encode(pixel, quality: 100), minimumSize: (224, 224))
        #expect(jpeg.image.width == 1 && jpeg.image.height == 1 && jpeg.scaleDenominator == 1)
        #expect(zip(jpeg.image.pixels, [200, 30, 90]).allSatisfy { abs(Int($0) - $1) <= 3 })
    }

    @Test func encodersRejectBadArguments() {
        #expect(throws: ImageEncodingError.invalidQuality(0)) { try JPEGEncoder.encode(Self.photo, quality: 0) }
        #expect(throws: ImageEncodingError.invalidQuality(101)) { try JPEGEncoder.encode(Self.photo, quality: 101) }
        #expect(throws: ImageEncodingError.invalidEXIFOrientation(-1)) {
            try JPEGEncoder.encode(Self.photo, exifOrientation: -1)
        }
        #expect(throws: ImageEncodingError.self) { try JPEGEncoder.encodeCMYK([1, 2, 3], width: 2, height: 2) }
    }
}
