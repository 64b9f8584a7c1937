import LiteVision
import LiteVisionTestSupport
import Testing

/// ``ObjectDetectorOptions/FrameCoordinates``: ML Kit on iOS reports a camera buffer's frames in the buffer's own
/// pixels (its sample divides `object.frame` by `CVPixelBufferGetWidth`/`Height` for
/// `layerRectConverted(fromMetadataOutputRect:)`); LiteVision's default is upright, as Android and MediaPipe.
@Suite("Frame coordinates of rotated camera buffers")
struct FrameCoordinatesTests {
    /// The test's own geometry, written apart from the library's: the stored buffer that `orientation` turns into
    /// an upright `width`×`height` image, as (stored size, upright pixel of each stored pixel, stored point of
    /// each upright point).
    struct StoredLayout {
        let width: Int
        let height: Int
        let uprightPixel: (Int, Int) -> (Int, Int)
        let storedPoint: (Double, Double) -> (Double, Double)

        init(_ orientation: ImageOrientation, uprightWidth w: Int, uprightHeight h: Int) {
            let W = Double(w), H = Double(h)
            switch orientation {
            case .up:
                (width, height) = (w, h)
                uprightPixel = { ($0, $1) }
                storedPoint = { ($0, $1) }
            case .upMirrored:
                (width, height) = (w, h)
                uprightPixel = { (w - 1 - $0, $1) }
                storedPoint = { (W - $0, $1) }
            case .down:
                (width, height) = (w, h)
                uprightPixel = { (w - 1 - $0, h - 1 - $1) }
                storedPoint = { (W - $0, H - $1) }
            case .downMirrored:
                (width, height) = (w, h)
                uprightPixel = { ($0, h - 1 - $1) }
                storedPoint = { ($0, H - $1) }
            case .right:  // the buffer turned 90° clockwise is upright
                (width, height) = (h, w)
                uprightPixel = { (w - 1 - $1, $0) }
                storedPoint = { ($1, W - $0) }
            case .left:  // the buffer turned 90° counterclockwise is upright
                (width, height) = (h, w)
                uprightPixel = { ($1, h - 1 - $0) }
                storedPoint = { (H - $1, $0) }
            case .leftMirrored:  // transposed
                (width, height) = (h, w)
                uprightPixel = { ($1, $0) }
                storedPoint = { ($1, $0) }
            case .rightMirrored:  // transversed
                (width, height) = (h, w)
                uprightPixel = { (w - 1 - $1, h - 1 - $0) }
                storedPoint = { (H - $1, W - $0) }
            }
        }

        /// The stored buffer holding `upright` (RGB8) turned this way.
        func buffer(from upright: ImageBuffer) -> ImageBuffer {
            var pixels = [UInt8](repeating: 0, count: width * height * 3)
            for y in 0..<height {
                for x in 0..<width {
                    let (ux, uy) = uprightPixel(x, y)
                    let from = uy * upright.bytesPerRow + ux * 3
                    let to = (y * width + x) * 3
                    pixels[to] = upright.pixels[from]
                    pixels[to + 1] = upright.pixels[from + 1]
                    pixels[to + 2] = upright.pixels[from + 2]
                }
            }
            return ImageBuffer(width: width, height: height, format: .rgb8, pixels: pixels)
        }

        /// The stored rectangle of the upright `box`.
        func stored(_ box: BoundingBox) -> BoundingBox {
            let a = storedPoint(box.x, box.y), b = storedPoint(box.x + box.width, box.y + box.height)
            return BoundingBox(
                x: min(a.0, b.0), y: min(a.1, b.1), width: abs(b.0 - a.0), height: abs(b.1 - a.1))
        }
    }

    static func uprightPhoto() throws -> ImageBuffer {
        let file = try VisionImage(contentsOfFile: TestData.image("img_meal_one.jpg"))
        #expect(file.imageOrientation == .up)
        let pixels = try file.decoded().uprightPixels()
        #expect(pixels.format == .rgb8)
        return pixels
    }

    static func detector(
        _ coordinates: ObjectDetectorOptions.FrameCoordinates, mode: DetectorMode
    ) throws
        -> ObjectDetector
    {
        let options = ObjectDetectorOptions()
        options.detectorMode = mode
        options.shouldEnableMultipleObjects = true
        options.frameCoordinates = coordinates
        options.modelDirectory = TestData.path("models")
        return try ObjectDetector(options: options)
    }

    static func close(_ a: BoundingBox, _ b: BoundingBox, within tolerance: Double) -> Bool {
        abs(a.x - b.x) <= tolerance && abs(a.y - b.y) <= tolerance && abs(a.width - b.width) <= tolerance
            && abs(a.height - b.height) <= tolerance
    }

    @Test("All 8 orientations: .cameraBuffer frames are the upright frames in the buffer's own pixels")
    func everyOrientation() throws {
        let upright = try Self.uprightPhoto()
        let uprightDetector = try Self.detector(.upright, mode: .singleImage)
        let bufferDetector = try Self.detector(.cameraBuffer, mode: .singleImage)
        let reference = try uprightDetector.results(in: VisionImage(buffer: upright)).map(\.frame)
        #expect(reference.count >= 2, "img_meal_one.jpg has several objects")
        for orientation in ImageOrientation.allCases {
            let layout = StoredLayout(orientation, uprightWidth: upright.width, uprightHeight: upright.height)
            let stored = layout.buffer(from: upright)
            let uprightFrames = try uprightDetector.results(in: VisionImage(buffer: stored, orientation: orientation))
                .map(\.frame)
            // The test's geometry agrees with the library's: the same objects, upright, whatever the rotation.
            #expect(uprightFrames.count == reference.count, "\(orientation)")
            for (found, expected) in zip(uprightFrames, reference) {
                #expect(Self.close(found, expected, within: 1.0), "\(orientation): \(found) vs \(expected)")
            }
            let bufferFrames = try bufferDetector.results(in: VisionImage(buffer: stored, orientation: orientation))
                .map(\.frame)
            #expect(bufferFrames.count == uprightFrames.count, "\(orientation)")
            for (found, upright) in zip(bufferFrames, uprightFrames) {
                let expected = layout.stored(upright)
                #expect(Self.close(found, expected, within: 1e-6), "\(orientation): \(found) vs \(expected)")
                #expect(found.x >= 0 && found.maxX <= Double(layout.width) + 1e-9, "\(orientation)")
                #expect(found.y >= 0 && found.maxY <= Double(layout.height) + 1e-9, "\(orientation)")
            }
        }
    }

    @Test(".cameraBuffer leaves files and VisionImage(image:) upright, as iOS does for a UIImage")
    func uprightImagesStayUpright() throws {
        let upright = try Self.uprightPhoto()
        let uprightDetector = try Self.detector(.upright, mode: .singleImage)
        let bufferDetector = try Self.detector(.cameraBuffer, mode: .singleImage)
        let layout = StoredLayout(.right, uprightWidth: upright.width, uprightHeight: upright.height)
        let stored = layout.buffer(from: upright)
        let image = VisionImage(image: stored, orientation: .right)
        #expect(try bufferDetector.results(in: image) == uprightDetector.results(in: image))
        let file = try VisionImage(contentsOfFile: TestData.image("img_meal_one.jpg"))
        file.orientation = .left
        #expect(try bufferDetector.results(in: file) == uprightDetector.results(in: file))
    }

    @Test("Stream mode tracks the same objects with the same IDs in either space")
    func streamMode() throws {
        let upright = try Self.uprightPhoto()
        let uprightDetector = try Self.detector(.upright, mode: .stream)
        let bufferDetector = try Self.detector(.cameraBuffer, mode: .stream)
        let layout = StoredLayout(.right, uprightWidth: upright.width, uprightHeight: upright.height)
        let stored = layout.buffer(from: upright)
        for _ in 0..<3 {
            let image = VisionImage(buffer: stored, orientation: .right)
            let inUpright = try uprightDetector.results(in: image)
            let inBuffer = try bufferDetector.results(in: image)
            #expect(inBuffer.map(\.trackingID) == inUpright.map(\.trackingID))
            #expect(!inBuffer.isEmpty)
            for (found, upright) in zip(inBuffer, inUpright) {
                #expect(Self.close(found.frame, layout.stored(upright.frame), within: 1e-6))
            }
        }
    }
}
