import LiteVisionDrawing
import LiteVisionImaging
import Testing

@Suite("Annotator input formats and drawing in place")
struct AnnotatorFormatTests {
    let photo = DrawingFixtures.pets
    let annotations = [DrawingFixtures.dogWithID, DrawingFixtures.dogWithoutID]

    @Test(
        "RGBA8 and BGRA8 inputs, padded or not, give exactly the RGB8 input's result",
        arguments: [(PixelFormat.rgba8, 0), (.bgra8, 0), (.rgb8, 5), (.bgra8, 12)])
    func otherFormats(format: PixelFormat, padding: Int) {
        let expected = Annotator.draw(annotations, on: photo)
        let drawn = Annotator.draw(annotations, on: photo.converted(to: format, padding: padding, alpha: 9))
        #expect(drawn.format == .rgb8)
        #expect(drawn.pixels == expected.pixels)
    }

    @Test("A gray image is drawn in color")
    func grayInput() {
        let gray = photo.converted(to: .gray8)
        let drawn = Annotator.draw(annotations, on: gray)
        #expect(drawn.format == .rgb8)
        #expect(drawn.rgb(338, 250) == AnnotationPalette.color(trackingID: 3, index: 0))
        #expect(drawn.rgb(10, 10) == gray.rgb(10, 10))
    }

    @Test(
        "Drawing a BGRA8 frame in place gives draw()'s pixels; alpha is 255 where drawn, kept elsewhere",
        arguments: [0, 16])
    func inPlaceBGRA(padding: Int) {
        var frame = photo.converted(to: .bgra8, padding: padding, alpha: 0x7F)
        Annotator.drawInPlace(annotations, on: &frame)
        #expect(frame.format == .bgra8 && frame.bytesPerRow == 512 * 4 + padding)
        #expect(frame.packedRGB == Annotator.draw(annotations, on: photo).pixels)
        let alphas = (0..<frame.height).flatMap { y in
            (0..<frame.width).map { x in frame.pixels[y * frame.bytesPerRow + x * 4 + 3] }
        }
        let opaque = alphas.count { $0 == 0xFF }, kept = alphas.count { $0 == 0x7F }
        #expect(opaque + kept == alphas.count, "alpha bytes other than 0x7F and 0xFF")
        #expect(opaque > 1000 && kept > alphas.count * 9 / 10)
        #expect(frame.pixels[3] == 0x7F && frame.pixels[frame.bytesPerRow * 250 + 338 * 4 + 3] == 0xFF)
        let paddingChanged = (0..<frame.height).contains { y in
            frame.pixels[(y * frame.bytesPerRow + 512 * 4)..<((y + 1) * frame.bytesPerRow)].contains { $0 != 0xEE }
        }
        #expect(!paddingChanged)
    }

    @Test(
        "Drawing other formats in place writes the drawing back in their own format",
        arguments: [PixelFormat.rgb8, .rgba8, .gray8])
    func inPlaceOtherFormats(format: PixelFormat) {
        var image = photo.converted(to: format, padding: 3, alpha: 0x42)
        Annotator.drawInPlace(annotations, on: &image)
        #expect(image.format == format && image.width == 512 && image.height == 430)
        let drawn = Annotator.draw(annotations, on: photo)
        if format == .gray8 {
            #expect(image.rgb(10, 10) == photo.converted(to: .gray8).rgb(10, 10))
            #expect(image.rgb(338, 250) != photo.converted(to: .gray8).rgb(338, 250))
        } else {
            #expect(image.packedRGB == drawn.pixels)
        }
        if format == .rgba8 {  // opaque where drawn, as when drawing a BGRA8 frame in place
            #expect(image.pixels[3] == 0x42 && image.pixels[image.bytesPerRow * 250 + 338 * 4 + 3] == 0xFF)
        }
    }

    @Test("Drawing in place with no annotations changes nothing")
    func inPlaceEmpty() {
        var frame = photo.converted(to: .bgra8, alpha: 1)
        let before = frame.pixels
        Annotator.drawInPlace([], on: &frame)
        #expect(frame.pixels == before)
    }
}
