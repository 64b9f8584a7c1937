import LiteVisionDrawing
import LiteVisionImaging
import Testing

@Suite("Annotator on a real photo")
struct AnnotatorPhotoTests {
    let photo = DrawingFixtures.pets
    let annotations = [DrawingFixtures.dogWithID, DrawingFixtures.dogWithoutID]

    @Test("The result is RGB8, of the photo's size")
    func sizeAndFormat() {
        let drawn = Annotator.draw(annotations, on: photo)
        #expect(drawn.width == 512 && drawn.height == 430)
        #expect(drawn.format == .rgb8)
        #expect(drawn.bytesPerRow == 512 * 3)
    }

    @Test("Pixels along every box edge take the box color, over the whole line width")
    func boxEdges() {
        let drawn = Annotator.draw(annotations, on: photo)
        let line = AnnotationStyle(imageWidth: photo.width, imageHeight: photo.height).lineWidth
        #expect(line == 2)
        for (index, annotation) in annotations.enumerated() {
            let color = AnnotationPalette.color(trackingID: annotation.trackingID, index: index)
            let (left, top) = (Int(annotation.box.x), Int(annotation.box.y))
            let (right, bottom) = (Int(annotation.box.maxX), Int(annotation.box.maxY))
            var edgePixels: [(Int, Int)] = []
            for y in stride(from: top + 30, to: bottom - 10, by: 7) {
                for inset in 0..<line { edgePixels += [(left + inset, y), (right - 1 - inset, y)] }
            }
            for x in stride(from: left + 2, to: right - 2, by: 5) {
                for inset in 0..<line { edgePixels += [(x, bottom - 1 - inset)] }
            }
            let wrong = edgePixels.filter { drawn.rgb($0.0, $0.1) != color }
            #expect(wrong.isEmpty, "box \(index): \(wrong.count) of \(edgePixels.count) edge pixels are not \(color)")
            // Just inside and just outside the line, the photo shows through.
            let midY = (top + bottom) / 2
            #expect(drawn.rgb(left + line + 1, midY) == photo.rgb(left + line + 1, midY))
            #expect(drawn.rgb(left - 2, midY) == photo.rgb(left - 2, midY))
        }
    }

    @Test("The two boxes get different colors: one from its tracking ID, one from its index")
    func colors() {
        let withID = AnnotationPalette.color(trackingID: 3, index: 0)
        let withoutID = AnnotationPalette.color(trackingID: nil, index: 1)
        #expect(withID != withoutID)
        let drawn = Annotator.draw(annotations, on: photo)
        #expect(drawn.rgb(338, 250) == withID)
        #expect(drawn.rgb(118, 150) == withoutID)
    }

    @Test("Pixels far from the boxes and captions are unchanged")
    func farPixelsUnchanged() {
        let drawn = Annotator.draw(annotations, on: photo)
        #expect(drawn.samePixels(as: photo, x: 0..<100, y: 0..<430))  // left of both boxes
        #expect(drawn.samePixels(as: photo, x: 270..<330, y: 0..<430))  // between them
        #expect(drawn.samePixels(as: photo, x: 0..<512, y: 380..<430))  // below both
        #expect(drawn.samePixels(as: photo, x: 345..<485, y: 176..<358))  // inside the first box
        #expect(drawn.samePixels(as: photo, x: 340..<512, y: 0..<130))  // above the first caption
    }

    @Test("The caption sits on a filled background just above the box and has text on it")
    func caption() {
        let drawn = Annotator.draw([DrawingFixtures.dogWithID], on: photo)
        let color = AnnotationPalette.color(trackingID: 3, index: 0)
        let style = AnnotationStyle(imageWidth: photo.width, imageHeight: photo.height)
        let band = Int(style.fontSize)  // the caption is taller than the font size
        let xs: Range<Int> = 338..<398
        let ys: Range<Int> = (169 - band)..<169
        var background = 0, text = 0
        for y in ys {
            for x in xs {
                let pixel = drawn.rgb(x, y)
                if pixel == color { background += 1 } else { text += 1 }
            }
        }
        // "#3 Dog 0.86": background everywhere but on the glyphs, in black or white, whichever contrasts.
        #expect(background > xs.count * ys.count / 2)
        #expect(text > 40, "no glyph pixels in the caption (\(text))")
        let pixels: [AnnotationColor] = ys.flatMap { y in xs.map { x in drawn.rgb(x, y) } }
        let glyphs = pixels.filter { pixel in
            let sum = Int(pixel.red) + Int(pixel.green) + Int(pixel.blue)
            return color.prefersDarkText ? sum < 150 : sum > 600
        }
        #expect(glyphs.count > 20)
        // The photo's pixels there were not already like that.
        #expect(!photo.samePixels(as: drawn, x: xs, y: ys))
    }
}
