import LiteVisionGeometry
import LiteVisionDrawing
import LiteVisionImaging
import LiteVisionTestSupport

/// Photos, pixel access and format conversions the drawing tests share.
enum DrawingFixtures {
    /// pets.jpg (512x430, two dogs), decoded to RGB8.
    static let pets: ImageBuffer = {
        do { return try ImageDecoder().decodeFile(atPath: TestData.image("pets.jpg")).image } catch {
            fatalError("cannot decode pets.jpg: \(error)")
        }
    }()

    /// Boxes on whole pixels around the two dogs of pets.jpg (from the object localizer's reference output).
    static let dogWithID = Annotation(
        box: BoundingBox(x: 338, y: 169, width: 155, height: 196),
        trackingID: 3, labels: ["Dog 0.86", "Pet 0.40"])
    static let dogWithoutID = Annotation(
        box: BoundingBox(x: 118, y: 47, width: 138, height: 250),
        labels: ["Home good 0.61"])
}

extension ImageBuffer {
    /// The red, green and blue of pixel (`x`, `y`) in any format (gray repeated three times).
    func rgb(_ x: Int, _ y: Int) -> AnnotationColor {
        let offset = y * bytesPerRow + x * format.bytesPerPixel
        switch format {
        case .rgb8, .rgba8:
            return AnnotationColor(red: pixels[offset], green: pixels[offset + 1], blue: pixels[offset + 2])
        case .bgra8: return AnnotationColor(red: pixels[offset + 2], green: pixels[offset + 1], blue: pixels[offset])
        case .gray8: return AnnotationColor(red: pixels[offset], green: pixels[offset], blue: pixels[offset])
        }
    }

    /// This RGB8 image in another 8-bit format, with rows `padding` bytes longer than needed (filled
    /// with 0xEE) and, for 4-byte formats, every alpha byte set to `alpha`.
    func converted(to target: PixelFormat, padding: Int = 0, alpha: UInt8 = 255) -> ImageBuffer {
        precondition(format == .rgb8)
        let stride = width * target.bytesPerPixel + padding
        var bytes = [UInt8](repeating: 0xEE, count: stride * height)
        for y in 0..<height {
            for x in 0..<width {
                let color = rgb(x, y)
                let out = y * stride + x * target.bytesPerPixel
                switch target {
                case .rgb8: bytes[out] = color.red; bytes[out + 1] = color.green; bytes[out + 2] = color.blue
                case .rgba8:
                    bytes[out] = color.red; bytes[out + 1] = color.green; bytes[out + 2] = color.blue
                    bytes[out + 3] = alpha
                case .bgra8:
                    bytes[out] = color.blue; bytes[out + 1] = color.green; bytes[out + 2] = color.red
                    bytes[out + 3] = alpha
                case .gray8: bytes[out] = color.green
                }
            }
        }
        return ImageBuffer(width: width, height: height, format: target, bytesPerRow: stride, pixels: bytes)
    }

    /// Whether every pixel of the rectangle has the same RGB in both images.
    func samePixels(as other: ImageBuffer, x xs: Range<Int>, y ys: Range<Int>) -> Bool {
        ys.allSatisfy { y in xs.allSatisfy { x in rgb(x, y) == other.rgb(x, y) } }
    }

    /// The RGB8 pixels of the whole image, rows packed.
    var packedRGB: [UInt8] {
        (0..<height).flatMap { y in
            (0..<width).flatMap { x in
                let color = rgb(x, y)
                return [color.red, color.green, color.blue]
            }
        }
    }
}
