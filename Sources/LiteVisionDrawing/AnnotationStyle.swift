/// Sizes of the strokes and captions, scaled to the image so annotations look the same on a
/// thumbnail and on a 12-megapixel photo.
package struct AnnotationStyle: Sendable, Hashable {
    /// Width of a box outline, in whole pixels (at least 2), drawn just inside the box.
    package var lineWidth: Int
    /// Caption font size in pixels (at least 12).
    package var fontSize: Double
    /// Space between the caption text and the edges of its background, in pixels.
    package var captionPadding: Double

    /// The style for an image of the given size: the line is 1/240 of the shorter side, the font 1/28.
    package init(imageWidth: Int, imageHeight: Int) {
        let side = Double(max(1, min(imageWidth, imageHeight)))
        lineWidth = max(2, Int((side / 240).rounded()))
        fontSize = max(12, (side / 28).rounded())
        captionPadding = (fontSize / 4).rounded()
    }
}
