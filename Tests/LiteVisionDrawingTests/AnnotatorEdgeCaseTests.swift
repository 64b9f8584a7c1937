import LiteVisionGeometry
import Foundation
import LiteVisionDrawing
import LiteVisionImaging
import LiteVisionTestSupport
import Testing

@Suite("Annotator edge cases and output")
struct AnnotatorEdgeCaseTests {
    let photo = DrawingFixtures.pets

    @Test("No annotations: the result is the same image")
    func empty() {
        let drawn = Annotator.draw([], on: photo)
        #expect(drawn.width == photo.width && drawn.height == photo.height && drawn.format == .rgb8)
        #expect(drawn.pixels == photo.pixels)
    }

    @Test("Boxes partly or wholly outside the image, empty or not finite, don't crash; visible parts are drawn")
    func boxesOutside() {
        let odd = [
            Annotation(box: BoundingBox(x: -50, y: -40, width: 150, height: 120), trackingID: 1, labels: ["Food 0.9"]),
            Annotation(box: BoundingBox(x: 450, y: 380, width: 300, height: 300), trackingID: 2, labels: ["Plant 0.5"]),
            Annotation(box: BoundingBox(x: 600, y: 10, width: 50, height: 50), labels: ["outside"]),
            Annotation(box: BoundingBox(x: -500, y: -500, width: 10_000, height: 10_000), trackingID: -7),
            Annotation(box: BoundingBox(x: 10, y: 10, width: 0, height: 0), labels: ["empty"]),
            Annotation(box: BoundingBox(x: .nan, y: 10, width: 5, height: .infinity), labels: ["nan"]),
            Annotation(box: BoundingBox(x: 200, y: 200, width: 1, height: 1), trackingID: 9),
            Annotation(box: BoundingBox(x: 1e300, y: -1e300, width: 1e300, height: 1e300)),
        ]
        let drawn = Annotator.draw(odd, on: photo)
        #expect(drawn.width == 512 && drawn.height == 430)
        // The first box is clipped to the image: its outline runs along x = 99, its bottom row is 79.
        #expect(drawn.rgb(99, 60) == AnnotationPalette.color(trackingID: 1, index: 0))
        #expect(drawn.rgb(60, 79) == AnnotationPalette.color(trackingID: 1, index: 0))
        // The second one's outline runs along its left edge, inside the image.
        #expect(drawn.rgb(450, 420) == AnnotationPalette.color(trackingID: 2, index: 1))
        var frame = photo.converted(to: .bgra8)
        Annotator.drawInPlace(odd, on: &frame)
        #expect(frame.packedRGB == drawn.pixels)
    }

    @Test("Tiny images, even smaller than a caption, are drawn without trouble", arguments: [(1, 1), (3, 2), (40, 9)])
    func tinyImages(width: Int, height: Int) {
        let image = ImageBuffer(width: width, height: height, format: .rgb8)
        let box = Annotation(
            box: BoundingBox(x: 0, y: 0, width: Double(width), height: Double(height)),
            trackingID: 1, labels: ["A rather long caption for so small an image"])
        let drawn = Annotator.draw([box], on: image)
        #expect(drawn.width == width && drawn.height == height && drawn.format == .rgb8)
        #expect(drawn.rgb(0, height - 1) == AnnotationPalette.color(trackingID: 1, index: 0))
    }

    @Test("A BGRA8 frame whose last row is shorter than the stride is drawn through a copy, with the same result")
    func shortLastRow() {
        let full = DrawingFixtures.pets.converted(to: .bgra8, padding: 8)
        let frame = ImageBuffer(
            width: full.width, height: full.height, format: .bgra8, bytesPerRow: full.bytesPerRow,
            pixels: Array(full.pixels.dropLast(8)))
        var drawn = frame
        Annotator.drawInPlace([DrawingFixtures.dogWithID], on: &drawn)
        #expect(drawn.pixels.count == frame.pixels.count)
        #expect(drawn.packedRGB == Annotator.draw([DrawingFixtures.dogWithID], on: DrawingFixtures.pets).pixels)
    }

    @Test("A box at the top edge gets its caption inside the image, at the top of the box")
    func captionAtTop() {
        let box = Annotation(
            box: BoundingBox(x: 200, y: 0, width: 200, height: 150), trackingID: 4, labels: ["Place 0.7"])
        let drawn = Annotator.draw([box], on: photo)
        let color = AnnotationPalette.color(trackingID: 4, index: 0)
        // Rows 3...12 just below the top line are caption background (or glyphs), not photo.
        let covered = (3...12).allSatisfy { y in (220..<240).contains { drawn.rgb($0, y) == color } }
        #expect(covered)
        #expect(!drawn.samePixels(as: photo, x: 200..<260, y: 2..<14))
    }

    @Test("A caption wider than the image space to the right is moved left to stay inside")
    func captionAtRight() {
        let box = Annotation(
            box: BoundingBox(x: 490, y: 200, width: 20, height: 100), trackingID: 5,
            labels: ["Fashion good 0.99"])
        let drawn = Annotator.draw([box], on: photo)
        let color = AnnotationPalette.color(trackingID: 5, index: 0)
        #expect((380..<490).contains { drawn.rgb($0, 190) == color })
    }

    @Test("The result encodes as PNG, and decodes back to the same pixels")
    func pngRoundTrip() throws {
        let drawn = Annotator.draw([DrawingFixtures.dogWithID, DrawingFixtures.dogWithoutID], on: photo)
        let png = try PNGEncoder.encode(drawn)
        let directory = TestData.temporaryDirectory("litevision-drawing")
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("pets-annotated.png")
        try Data(png).write(to: file)
        // Set LITEVISION_DRAWING_PREVIEW to a path to keep a copy to look at.
        if let preview = ProcessInfo.processInfo.environment["LITEVISION_DRAWING_PREVIEW"], !preview.isEmpty {
            try Data(png).write(to: URL(fileURLWithPath: preview))
        }
        let decoded = try ImageDecoder().decodeFile(atPath: file.path)
        #expect(decoded.format == .png)
        #expect(decoded.image.width == 512 && decoded.image.height == 430)
        #expect(decoded.image.packedRGB == drawn.pixels)
    }
}
