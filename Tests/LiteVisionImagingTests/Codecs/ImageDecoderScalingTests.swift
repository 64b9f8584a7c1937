import Testing
import LiteVisionImaging
import LiteVisionTestSupport

/// JPEG DCT-domain scaling (`minimumSize`).
@Suite struct ImageDecoderScalingTests {
    @Test func beachAt224DecodesAtOneEighth() throws {
        let decoded = try ImageDecoder().decodeFile(atPath: TestData.image("beach.jpg"), minimumSize: (224, 224))
        #expect(decoded.scaleDenominator == 8)
        #expect(decoded.image.width == 512 && decoded.image.height == 380)
        #expect(decoded.originalWidth == 4096 && decoded.originalHeight == 3040)
        #expect(decoded.image.bytesPerRow == 512 * 3 && decoded.image.pixels.count == 512 * 380 * 3)
        // Pillow: im.draft("RGB", (512, 380)) gives the same scaled decode (bit-identical);
        // its mean is (105.5821, 119.6784, 145.0398) and pixel (256, 190) is (49, 47, 58).
        let m = CodecTestHelpers.meanRGB(decoded.image)
        #expect(abs(m.r - 105.5821) < 0.001 && abs(m.g - 119.6784) < 0.001 && abs(m.b - 145.0398) < 0.001)
        #expect(CodecTestHelpers.pixel(decoded.image, x: 256, y: 190) == [49, 47, 58])
    }

    @Test func beachAt600DecodesAtOneQuarter() throws {
        let decoded = try ImageDecoder().decodeFile(atPath: TestData.image("beach.jpg"), minimumSize: (600, 600))
        #expect(decoded.scaleDenominator == 4)
        #expect(decoded.image.width == 1024 && decoded.image.height == 760)
    }

    @Test func withoutMinimumDecodesFullSize() throws {
        let decoded = try ImageDecoder().decodeFile(atPath: TestData.image("bird.jpg"), minimumSize: nil)
        #expect(decoded.scaleDenominator == 1 && decoded.image.width == 2000 && decoded.image.height == 1508)
    }

    @Test func scaledSizesRoundUpAndStayAboveTheMinimum() throws {
        // bird.jpg is 2000x1508: 1/8 gives 250x189 (1508/8 = 188.5, rounded up).
        let bird = TestData.image("bird.jpg")
        let eighth = try ImageDecoder().decodeFile(atPath: bird, minimumSize: (189, 189))
        #expect(eighth.scaleDenominator == 8 && eighth.image.width == 250 && eighth.image.height == 189)
        // One more pixel of height no longer fits at 1/8.
        let quarter = try ImageDecoder().decodeFile(atPath: bird, minimumSize: (100, 190))
        #expect(quarter.scaleDenominator == 4 && quarter.image.width == 500 && quarter.image.height == 377)
        let half = try ImageDecoder().decodeFile(atPath: bird, minimumSize: (1000, 600))
        #expect(half.scaleDenominator == 2 && half.image.width == 1000 && half.image.height == 754)
        // A minimum larger than the image: full size, never upscaled.
        let full = try ImageDecoder().decodeFile(atPath: bird, minimumSize: (5000, 5000))
        #expect(full.scaleDenominator == 1 && full.image.width == 2000)
    }

    @Test func minimumIsPerAxisOfTheStoredImage() throws {
        // A 4096x3040 image with a portrait minimum 300x500: height 3040/4 = 760 >= 500 but /8 = 380 < 500.
        let decoded = try ImageDecoder().decodeFile(atPath: TestData.image("beach.jpg"), minimumSize: (300, 500))
        #expect(decoded.scaleDenominator == 4)
    }

    @Test func scalingWorksForProgressiveJPEG() throws {
        // dandelion.jpg (800x512) is progressive.
        let decoded = try ImageDecoder().decodeFile(atPath: TestData.image("dandelion.jpg"), minimumSize: (100, 64))
        #expect(decoded.scaleDenominator == 8 && decoded.image.width == 100 && decoded.image.height == 64)
    }

    @Test func tinyImagesAreNotScaledByAnAmbiguousFactor() throws {
        // 3x3 at 1/2 is 2x2, but so is 5/8, which libjpeg-turbo would prefer: stay at full size.
        let tiny = ImageBuffer(width: 3, height: 3, format: .rgb8, pixels: [UInt8](repeating: 128, count: 27))
        let decoded = try ImageDecoder().decode(JPEGEncoder.encode(tiny), minimumSize: (2, 2))
        #expect(decoded.scaleDenominator == 1 && decoded.image.width == 3)
        // 16x16 at 1/8 is 2x2 and no other factor gives that.
        let small = ImageBuffer(width: 16, height: 16, format: .rgb8, pixels: [UInt8](repeating: 128, count: 768))
        let scaled = try ImageDecoder().decode(JPEGEncoder.encode(small), minimumSize: (2, 2))
        #expect(scaled.scaleDenominator == 8 && scaled.image.width == 2 && scaled.image.height == 2)
    }

    @Test func pngIgnoresTheMinimum() throws {
        let png = try PNGEncoder.encode(CodecTestHelpers.photoCrop)
        let decoded = try ImageDecoder().decode(png, minimumSize: (4, 4))
        #expect(decoded.scaleDenominator == 1 && decoded.image.width == 64 && decoded.image.height == 48)
    }
}
