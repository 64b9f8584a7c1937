import LiteVisionImaging
import LiteVisionGeometry

/// Draws a list of annotations on a canvas: every outline first, then every caption, so no outline is
/// drawn over a caption.
enum AnnotationRenderer {
    /// Draws `annotations` on `canvas`, which covers a `width` x `height` image.
    static func render(_ annotations: [Annotation], on canvas: borrowing CairoCanvas, width: Int, height: Int) {
        let style = AnnotationStyle(imageWidth: width, imageHeight: height)
        let visible = annotations.enumerated().compactMap { index, annotation in
            PixelRect(annotation.box, rounding: .nearest, imageWidth: width, imageHeight: height).map {
                (
                    rect: $0, annotation: annotation,
                    color: AnnotationPalette.color(trackingID: annotation.trackingID, index: index)
                )
            }
        }
        for item in visible {
            canvas.setColor(item.color)
            canvas.strokeInside(item.rect, lineWidth: style.lineWidth)
        }
        canvas.setFont(size: style.fontSize)
        let metrics = canvas.fontMetrics()
        for item in visible {
            let caption = item.annotation.caption
            guard !caption.isEmpty else { continue }
            let padding = style.captionPadding
            let frame = CaptionPlacement.frame(
                captionWidth: (canvas.advance(of: caption) + 2 * padding).rounded(.up),
                captionHeight: (metrics.ascent + metrics.descent + 2 * padding).rounded(.up),
                over: item.rect, imageWidth: width, imageHeight: height)
            canvas.setColor(item.color)
            canvas.fill(x: frame.x, y: frame.y, width: frame.width, height: frame.height)
            canvas.setColor(
                item.color.prefersDarkText
                    ? AnnotationColor(red: 0, green: 0, blue: 0)
                    : AnnotationColor(red: 255, green: 255, blue: 255))
            canvas.clip(x: frame.x, y: frame.y, width: frame.width, height: frame.height)
            canvas.showText(caption, x: frame.x + padding, baseline: frame.y + padding + metrics.ascent)
            canvas.resetClip()
        }
    }
}
