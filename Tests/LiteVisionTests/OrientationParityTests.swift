import Foundation
import LiteVision
import LiteVisionImaging
import LiteVisionTestSupport
import Testing

/// Every shared photo, and photos the test makes (tiny, odd-sized, very wide and very tall), stored in each of
/// the 8 EXIF orientations, gives the confidences ../shared/tools/reference.py computes for that same file (it
/// turns the decoded photo upright, then resizes), exactly: the files are JPEGs with 4:4:4 chroma, which both
/// sides decode to the same pixels, so any difference is LiteVision's preprocessing.
@Suite("Orientation parity with reference.py")
struct OrientationParityTests {
    /// Photos made from the shared ones: (name, source photo, x, y, width, height in pixels of the upright photo).
    /// Labeling needs at least 16×16 pixels.
    static let madePhotos: [(String, String, Int, Int, Int, Int)] = [
        ("smallest", "daisy.jpeg", 250, 180, 16, 16),
        ("tiny", "grace_hopper.jpg", 200, 150, 17, 19),
        ("odd", "pets.jpg", 101, 57, 37, 23),
        ("wide", "cats_and_dogs.jpg", 0, 300, 1199, 17),
        ("tall", "bird.jpg", 900, 0, 21, 1501),
        ("oblong", "dogs.jpg", 13, 7, 457, 123),
    ]

    @Test("All 8 EXIF orientations give reference.py's confidences exactly, for every classifier")
    func everyOrientation() throws {
        let folder = TestData.temporaryDirectory("orientation-photos")
        let output = TestData.temporaryDirectory("orientation-reference")
        defer {
            try? FileManager.default.removeItem(at: folder)
            try? FileManager.default.removeItem(at: output)
        }
        var photos: [(String, ImageBuffer)] = try TestData.imageNames.map {
            (($0 as NSString).deletingPathExtension, try PhotoFixtures.upright($0))
        }
        for (name, source, x, y, width, height) in Self.madePhotos {
            photos.append(
                (name, Self.crop(try PhotoFixtures.upright(source), x: x, y: y, width: width, height: height)))
        }
        var files: [String] = []
        for (name, upright) in photos {
            for orientation in ImageOrientation.allCases {
                let file = "\(name)-exif\(orientation.exifValue).jpg"
                let stored = Resampler.orient(upright, orientation.inverse)
                let bytes = try JPEGEncoder.encode(stored, quality: 95, exifOrientation: orientation.exifValue)
                try Data(bytes).write(to: folder.appendingPathComponent(file))
                files.append(file)
            }
        }
        try PhotoFixtures.computeReference(images: folder, output: output)
        let reference = try ReferenceLabels.load(from: output.appendingPathComponent("labels.json").path)

        var compared = 0
        var failures: [String] = []
        for (model, open) in ReferenceLabels.models {
            let labeler = try exhaustiveLabeler(open())
            // reference.py writes 5 decimals. Quantized models give the same bytes for the same input; the float
            // model's sums may round differently in the last bits between the two runtimes' kernels (seen: 6e-6).
            let tolerance: Float = model.contains("float") ? 0.000_02 : 0.000_006
            for file in files {
                let expected = try #require(reference[model]?[file], "reference.py gave nothing for \(model) \(file)")
                let image = try VisionImage(contentsOfFile: folder.appendingPathComponent(file).path)
                let labels = try labeler.results(in: image)
                for label in expected {
                    compared += 1
                    let found = labels.first { $0.index == label.index }?.confidence ?? -1
                    if abs(found - label.confidence) > tolerance {
                        failures.append(
                            "\(model) \(file): label \(label.index) \(found), reference \(label.confidence)")
                    }
                }
            }
        }
        print("orientation parity: \(files.count) files, \(compared) confidences compared, \(failures.count) differ")
        #expect(compared >= files.count * ReferenceLabels.models.count * 5)
        #expect(failures.isEmpty, "\(failures.prefix(40).joined(separator: "\n"))")
    }

    /// The `width`×`height` pixels at `x, y` of an RGB image.
    static func crop(_ image: ImageBuffer, x: Int, y: Int, width: Int, height: Int) -> ImageBuffer {
        precondition(x + width <= image.width && y + height <= image.height, "crop outside the photo")
        var pixels: [UInt8] = []
        pixels.reserveCapacity(width * height * 3)
        for row in y..<(y + height) {
            let start = row * image.bytesPerRow + x * 3
            pixels += image.pixels[start..<start + width * 3]
        }
        return ImageBuffer(width: width, height: height, format: .rgb8, pixels: pixels)
    }
}
