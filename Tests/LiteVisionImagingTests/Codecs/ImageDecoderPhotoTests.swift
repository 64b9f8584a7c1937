import Foundation
import Testing
import LiteVisionImaging
import LiteVisionTestSupport

/// Decoding the real photos of the shared test data.
@Suite struct ImageDecoderPhotoTests {
    /// Stored sizes, as Pillow reports them (`Image.open(path).size`).
    static let expectedSizes: [String: (Int, Int)] = [
        "beach.jpg": (4096, 3040), "bird.jpg": (2000, 1508), "burger.jpg": (480, 325),
        "cats_and_dogs.jpg": (1200, 600), "daisy.jpeg": (500, 375), "dandelion.jpg": (800, 512),
        "dogs.jpg": (640, 427), "grace_hopper.jpg": (517, 606), "img_meal_one.jpg": (640, 480),
        "img_meal_three.jpg": (768, 496), "img_meal_two.jpg": (800, 600), "kite_and_cold.jpg": (1352, 900),
        "liberty.jpg": (2448, 2051), "multi_objects.jpg": (902, 358), "pets.jpg": (512, 430),
        "roses.jpeg": (500, 333), "sunflower.jpg": (641, 641), "tulips.jpeg": (320, 213),
        "yolox_dog_bicycle_truck.jpg": (768, 576),
    ]

    @Test(arguments: TestData.imageNames)
    func decodesEveryPhotoAtItsStoredSize(name: String) throws {
        let decoded = try ImageDecoder().decodeFile(atPath: TestData.image(name))
        let image = decoded.image
        #expect(image.format == .rgb8)
        #expect(image.bytesPerRow == image.width * 3)
        #expect(image.pixels.count == image.width * image.height * 3)
        #expect(decoded.format == .jpeg)
        #expect(decoded.scaleDenominator == 1)
        #expect(decoded.originalWidth == image.width && decoded.originalHeight == image.height)
        #expect(decoded.warning == nil)
        // Every shared photo either has no orientation tag or says 1 (Pillow: getexif().get(0x112)).
        #expect(decoded.orientation == .up)
        if let (width, height) = Self.expectedSizes[name] {
            #expect(image.width == width && image.height == height)
        }
        // Not a blank buffer: real photos have many distinct values.
        #expect(Set(stride(from: 0, to: image.pixels.count, by: 97).map { image.pixels[$0] }).count > 50)
    }

    @Test func listsTheKnownPhotos() {
        #expect(Set(TestData.imageNames).isSuperset(of: Self.expectedSizes.keys))
    }

    /// Expected values computed once with Pillow 13 (bundling libjpeg-turbo 3.2, accurate IDCT and fancy
    /// upsampling by default) on the same files:
    ///   a = numpy.asarray(Image.open(path).convert("RGB")).astype(float)
    ///   a.reshape(-1, 3).mean(0), a[0, 0], a[h // 2, w // 2]
    /// Our decoding was bit-identical to Pillow on every shared photo (max abs diff 0), so the tolerance on
    /// the means only absorbs their printed rounding. The photos cover 4:4:4, 4:2:0, 4:2:2 and 4:4:0
    /// chroma subsampling and an Adobe APP14 marker.
    @Test(
        arguments: [
            ("bird.jpg", [127.2978, 132.1030, 141.5311], [85, 122, 174], [158, 148, 157]),
            ("grace_hopper.jpg", [82.5876, 72.4325, 86.3691], [21, 26, 82], [208, 123, 86]),
            ("sunflower.jpg", [186.4267, 158.3100, 81.1678], [176, 167, 152], [254, 205, 4]),
            ("img_meal_one.jpg", [145.0726, 93.5400, 51.0653], [66, 79, 23], [142, 43, 2]),
            ("yolox_dog_bicycle_truck.jpg", [134.4470, 135.6657, 114.0797], [57, 58, 50], [119, 6, 10]),
        ] as [(String, [Double], [UInt8], [UInt8])])
    func pixelsMatchPillow(name: String, mean: [Double], corner: [UInt8], center: [UInt8]) throws {
        let image = try ImageDecoder().decodeFile(atPath: TestData.image(name)).image
        let m = CodecTestHelpers.meanRGB(image)
        #expect(
            abs(m.r - mean[0]) < 0.001 && abs(m.g - mean[1]) < 0.001 && abs(m.b - mean[2]) < 0.001,
            "mean RGB \(m) of \(name), Pillow says \(mean)")
        #expect(CodecTestHelpers.pixel(image, x: 0, y: 0) == corner)
        #expect(CodecTestHelpers.pixel(image, x: image.width / 2, y: image.height / 2) == center)
    }

    @Test func decodeFileEqualsDecodeOfBytes() throws {
        let bytes = try CodecTestHelpers.photoBytes("sunflower.jpg")
        let fromBytes = try ImageDecoder().decode(bytes)
        let fromPointer = try bytes.withUnsafeBytes { try ImageDecoder().decode($0) }
        let fromFile = try ImageDecoder().decodeFile(atPath: TestData.image("sunflower.jpg"))
        #expect(fromBytes.image.pixels == fromFile.image.pixels)
        #expect(fromPointer.image.pixels == fromFile.image.pixels)
    }

    @Test(arguments: ["bird.jpg", "beach.jpg", "dandelion.jpg"])
    func inspectReadsTheHeaderOnly(name: String) throws {
        let info = try ImageDecoder().inspectFile(atPath: TestData.image(name))
        let (width, height) = try #require(Self.expectedSizes[name])
        #expect(info == ImageHeaderInfo(format: .jpeg, width: width, height: height, orientation: .up))
        // The header is not subject to the pixel limit: it is how callers learn the size.
        let tiny = ImageDecoder(maxPixelCount: 10)
        #expect(try tiny.inspect(CodecTestHelpers.photoBytes(name)).width == width)
    }

    @Test func decodesConcurrentlyWithTheSameResults() async throws {
        let names = ["bird.jpg", "dogs.jpg", "sunflower.jpg", "tulips.jpeg"]
        let decoder = ImageDecoder()
        var expected: [String: [UInt8]] = [:]
        for name in names { expected[name] = try decoder.decodeFile(atPath: TestData.image(name)).image.pixels }
        let results = try await withThrowingTaskGroup(of: (String, [UInt8]).self) { group in
            for _ in 0..<3 {
                for name in names {
                    group.addTask { (name, try decoder.decodeFile(atPath: TestData.image(name)).image.pixels) }
                }
            }
            var all: [(String, [UInt8])] = []
            for try await result in group { all.append(result) }
            return all
        }
        #expect(results.count == names.count * 3)
        for (name, pixels) in results { #expect(pixels == expected[name], "\(name) differs when decoded concurrently") }
    }
}
