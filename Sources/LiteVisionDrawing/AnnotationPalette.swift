/// The colors boxes are drawn in: a fixed list of saturated, mutually distinct colors.
///
/// A box with a tracking ID always gets the color of that ID (the same in every frame and every run,
/// since it depends on nothing but the ID); a box without one gets the color of its position in the list.
package enum AnnotationPalette {
    /// The colors, in the order neighbouring IDs and indexes get them (adjacent entries contrast).
    package static let colors: [AnnotationColor] = [
        AnnotationColor(red: 230, green: 25, blue: 75),  // red
        AnnotationColor(red: 60, green: 180, blue: 75),  // green
        AnnotationColor(red: 0, green: 130, blue: 200),  // blue
        AnnotationColor(red: 255, green: 225, blue: 25),  // yellow
        AnnotationColor(red: 145, green: 30, blue: 180),  // purple
        AnnotationColor(red: 245, green: 130, blue: 48),  // orange
        AnnotationColor(red: 70, green: 240, blue: 240),  // cyan
        AnnotationColor(red: 240, green: 50, blue: 230),  // magenta
        AnnotationColor(red: 210, green: 245, blue: 60),  // lime
        AnnotationColor(red: 0, green: 128, blue: 128),  // teal
    ]

    /// The color of an annotation: by its tracking ID when it has one, else by its `index` in the list
    /// being drawn. Negative IDs are accepted.
    package static func color(trackingID: Int?, index: Int) -> AnnotationColor {
        colors[slot(trackingID ?? index)]
    }

    /// A stable hash of an integer onto the palette: its non-negative remainder, so consecutive IDs (as
    /// trackers hand them out) get different colors.
    private static func slot(_ key: Int) -> Int {
        let count = colors.count
        return ((key % count) + count) % count
    }
}
