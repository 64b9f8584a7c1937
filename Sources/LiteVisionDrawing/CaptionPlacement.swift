import LiteVisionGeometry

/// Where a caption's background goes: on top of the box, sharing its left edge, or inside the box at its
/// top when there is no room above (a box touching the top of the image); always inside the image.
enum CaptionPlacement {
    /// The caption's background rectangle (x, y, width, height) for a caption of the given size over `box`.
    static func frame(
        captionWidth: Double, captionHeight: Double, over box: PixelRect,
        imageWidth: Int, imageHeight: Int
    ) -> (x: Double, y: Double, width: Double, height: Double) {
        let width = min(captionWidth, Double(imageWidth))
        let height = min(captionHeight, Double(imageHeight))
        let above = Double(box.y) - height
        let y = above >= 0 ? above : Double(box.y)
        return (
            x: clamp(Double(box.x), upTo: Double(imageWidth) - width),
            y: clamp(y, upTo: Double(imageHeight) - height),
            width: width, height: height
        )
    }

    private static func clamp(_ value: Double, upTo limit: Double) -> Double {
        max(0, min(value, limit))
    }
}
