import Foundation
import LiteVision
import LiteVisionTestSupport
import Testing
import LiteVisionImaging

/// A photo stored in each of the 8 EXIF orientations, and the same pixels passed as a buffer with
/// `orientation` set, give the labels of the upright photo.
@Suite("Labeling honours orientation")
struct OrientationTests {
    /// The orientation that undoes `orientation` (the stored pixels of an upright image shown with it).
    static func inverse(_ orientation: ImageOrientation) -> ImageOrientation {
        switch orientation {
        case .left: .right
        case .right: .left
        default: orientation  // 180° and the four mirrored cases are their own inverses
        }
    }

    static let labeler: ImageLabeler = {
        try! exhaustiveLabeler(LocalModel(path: TestData.model("object_labeler.tflite")))
    }()

    /// grace_hopper.jpg is confidently labeled "Person" by the object labeler: a good orientation probe,
    /// because a sideways or upside-down person scores differently.
    static let upright: ImageBuffer = try! PhotoFixtures.upright("grace_hopper.jpg")

    static func assertSameLabels(_ labels: [ImageLabel], _ expected: [ImageLabel], tolerance: Float, context: String) {
        #expect(labels.first?.index == expected.first?.index, "\(context): top-1 differs")
        for label in expected where label.confidence >= 0.1 {
            let found = labels.first { $0.index == label.index }
            #expect(
                found != nil && abs(found!.confidence - label.confidence) <= tolerance,
                "\(context): \(label.text) \(label.confidence) vs \(found?.confidence ?? -1)")
        }
    }

    @Test("EXIF orientations 1...8 in JPEG files", arguments: ImageOrientation.allCases)
    func exifFiles(orientation: ImageOrientation) throws {
        let folder = TestData.temporaryDirectory("orientation")
        defer { try? FileManager.default.removeItem(at: folder) }
        let reference = folder.appendingPathComponent("upright.jpg")
        try Data(try JPEGEncoder.encode(Self.upright, quality: 95)).write(to: reference)
        let stored = Resampler.orient(Self.upright, Self.inverse(orientation))
        let rotated = folder.appendingPathComponent("rotated.jpg")
        try Data(try JPEGEncoder.encode(stored, quality: 95, exifOrientation: orientation.exifValue)).write(to: rotated)

        let image = try VisionImage(contentsOfFile: rotated.path)
        #expect(image.orientation == orientation)
        let expected = try Self.labeler.results(in: try VisionImage(contentsOfFile: reference.path))
        #expect(expected.first?.text == "Person")
        Self.assertSameLabels(
            try Self.labeler.results(in: image), expected, tolerance: 0.03, context: "EXIF \(orientation)")
    }

    @Test("Pixel buffers with orientation set", arguments: ImageOrientation.allCases)
    func buffers(orientation: ImageOrientation) throws {
        let stored = Resampler.orient(Self.upright, Self.inverse(orientation))
        let expected = try Self.labeler.results(in: VisionImage(buffer: Self.upright))
        let labels = try Self.labeler.results(in: VisionImage(buffer: stored, orientation: orientation))
        Self.assertSameLabels(labels, expected, tolerance: 0.02, context: "buffer \(orientation)")
    }

    @Test("A wrong orientation changes the answer (the check above can fail)")
    func wrongOrientationMatters() throws {
        let stored = Resampler.orient(Self.upright, .down)
        let expected = try Self.labeler.results(in: VisionImage(buffer: Self.upright))
        let wrong = try Self.labeler.results(in: VisionImage(buffer: stored, orientation: .up))
        let person = expected[0]
        let wrongPerson = wrong.first { $0.index == person.index }?.confidence ?? 0
        #expect(abs(wrongPerson - person.confidence) > 0.03)
    }

    @Test("Camera orientation mapping from the ML Kit guides")
    func deviceOrientation() {
        let cases: [(DeviceOrientation, CameraPosition, ImageOrientation)] = [
            (.portrait, .back, .right), (.portrait, .front, .leftMirrored),
            (.landscapeLeft, .back, .up), (.landscapeLeft, .front, .downMirrored),
            (.portraitUpsideDown, .back, .left), (.portraitUpsideDown, .front, .rightMirrored),
            (.landscapeRight, .back, .down), (.landscapeRight, .front, .upMirrored),
            (.faceUp, .back, .up), (.faceDown, .front, .up), (.unknown, .back, .up),
        ]
        for (device, camera, expected) in cases {
            #expect(
                ImageOrientation(deviceOrientation: device, cameraPosition: camera) == expected,
                "\(device) \(camera)")
        }
    }
}
