import LiteVisionGeometry
import LiteVisionDrawing
import LiteVisionImaging
import Testing

@Suite("Annotation captions, colors and style")
struct AnnotationModelTests {
    @Test("The caption is #id and the first label")
    func captions() {
        let box = BoundingBox(x: 0, y: 0, width: 10, height: 10)
        #expect(Annotation(box: box, trackingID: 7, labels: ["Food 0.83", "Plant 0.1"]).caption == "#7 Food 0.83")
        #expect(Annotation(box: box, trackingID: 7).caption == "#7")
        #expect(Annotation(box: box, labels: ["Food 0.83"]).caption == "Food 0.83")
        #expect(Annotation(box: box).caption == "")
        #expect(Annotation(box: box, labels: [""]).caption == "")
    }

    @Test("A tracking ID always gets the same color; consecutive IDs get different ones")
    func colors() {
        let palette = AnnotationPalette.colors
        #expect(Set(palette).count == palette.count)
        for id in [-13, -1, 0, 1, 5, 42, Int.max, Int.min] {
            #expect(
                AnnotationPalette.color(trackingID: id, index: 0) == AnnotationPalette.color(trackingID: id, index: 3))
            #expect(
                AnnotationPalette.color(trackingID: id, index: 0)
                    != AnnotationPalette.color(trackingID: id &+ 1, index: 0))
        }
        #expect(
            AnnotationPalette.color(trackingID: nil, index: 0) != AnnotationPalette.color(trackingID: nil, index: 1))
        #expect(AnnotationPalette.color(trackingID: 12, index: 0) == palette[2])
    }

    @Test("Lines and fonts scale with the image")
    func style() {
        let small = AnnotationStyle(imageWidth: 64, imageHeight: 48)
        let video = AnnotationStyle(imageWidth: 1920, imageHeight: 1080)
        let photo = AnnotationStyle(imageWidth: 4096, imageHeight: 3040)
        #expect(small.lineWidth == 2 && small.fontSize == 12)
        #expect(video.lineWidth == 5 && video.fontSize == 39)
        #expect(photo.lineWidth > video.lineWidth && photo.fontSize > video.fontSize)
    }
}
