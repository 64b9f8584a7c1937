import LiteVision
import LiteVisionTestSupport
import Testing

@Suite("Detection and JPEG decoding scale")
struct DetectionDecodingScaleTests {
    @Test("Object frames are in the photo's own pixels whatever the decoding scale")
    func framesInFullResolution() throws {
        let options = ObjectDetectorOptions()
        options.detectorMode = .singleImage
        options.shouldEnableMultipleObjects = true
        options.modelDirectory = TestData.path("models")
        options.detectionThreshold = 0.3
        let full = try ObjectDetector(options: options)
        options.processing.decodingScale = .automatic
        let automatic = try ObjectDetector(options: options)
        let image = try VisionImage(contentsOfFile: TestData.image("bird.jpg"))  // 2000x1508: decoded at 1/2 or less
        let expected = try full.results(in: image)
        let found = try automatic.results(in: image)
        #expect(!expected.isEmpty)
        // The smaller decode may move a box a little, never by the decoding factor (2 or more).
        #expect(found.count == expected.count)
        for (a, b) in zip(found, expected) {
            let tolerance = 0.02 * 2000
            #expect(abs(a.frame.x - b.frame.x) < tolerance && abs(a.frame.y - b.frame.y) < tolerance)
            #expect(abs(a.frame.width - b.frame.width) < tolerance && abs(a.frame.height - b.frame.height) < tolerance)
        }
    }
}
