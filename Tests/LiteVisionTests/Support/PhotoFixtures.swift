import Foundation
import LiteVision
import LiteVisionTestSupport
import Testing
import LiteVisionImaging

/// New photos made from the shared ones (crops, mirror images, re-encodings), written by the tests into
/// a temporary folder: photos the reference outputs in ../shared have never seen.
enum PhotoFixtures {
    /// The upright RGB pixels of a shared photo.
    static func upright(_ name: String) throws -> ImageBuffer {
        let decoded = try ImageDecoder().decodeFile(atPath: TestData.image(name))
        return Resampler.orient(decoded.image, decoded.orientation)
    }

    /// The rectangle `x, y, width, height` (fractions of the image) of an RGB image.
    static func crop(_ image: ImageBuffer, x: Double, y: Double, width: Double, height: Double) -> ImageBuffer {
        let left = Int(Double(image.width) * x), top = Int(Double(image.height) * y)
        let w = max(1, Int(Double(image.width) * width)), h = max(1, Int(Double(image.height) * height))
        var pixels = [UInt8](repeating: 0, count: w * h * 3)
        for row in 0..<h {
            let source = (top + row) * image.bytesPerRow + left * 3
            pixels.replaceSubrange(row * w * 3..<(row + 1) * w * 3, with: image.pixels[source..<source + w * 3])
        }
        return ImageBuffer(width: w, height: h, format: .rgb8, pixels: pixels)
    }

    /// The image mirrored left to right.
    static func mirrored(_ image: ImageBuffer) -> ImageBuffer {
        Resampler.orient(image, .upMirrored)
    }

    /// Writes a set of new photos (JPEG and PNG) into `folder` and returns their file names.
    static func writeUnseenPhotos(into folder: URL) throws -> [String] {
        let bird = try upright("bird.jpg")
        let pets = try upright("pets.jpg")
        let tulips = try upright("tulips.jpeg")
        let meal = try upright("img_meal_two.jpg")
        let photos: [(String, ImageBuffer)] = [
            ("heron_crop.jpg", crop(bird, x: 0.2, y: 0.05, width: 0.6, height: 0.9)),
            ("pets_left.png", crop(pets, x: 0, y: 0, width: 0.55, height: 1)),
            ("pets_mirrored.jpg", mirrored(pets)),
            ("tulips_center.jpg", crop(tulips, x: 0.15, y: 0.15, width: 0.7, height: 0.7)),
            ("meal_corner.png", crop(meal, x: 0.3, y: 0.3, width: 0.7, height: 0.7)),
        ]
        for (name, image) in photos {
            let bytes =
                name.hasSuffix(".png") ? try PNGEncoder.encode(image) : try JPEGEncoder.encode(image, quality: 92)
            try Data(bytes).write(to: folder.appendingPathComponent(name))
        }
        return photos.map(\.0)
    }

    /// Runs ../shared/tools/reference.py (the official LiteRT runtime through Python) on `images`,
    /// writing labels.json and detections.json into `output`. A missing Python package is a setup error.
    static func computeReference(images: URL, output: URL) throws {
        try PythonTool.run(
            TestData.path("tools/reference.py"), arguments: [output.path, images.path],
            needs: "Pillow, numpy and ai-edge-litert==2.3.0")
    }
}

struct SetupError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
