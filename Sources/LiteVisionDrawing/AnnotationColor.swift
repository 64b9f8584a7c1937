/// An opaque 8-bit RGB color of a box and its caption background.
package struct AnnotationColor: Sendable, Hashable, CustomStringConvertible {
    /// Red, 0...255.
    package var red: UInt8
    /// Green, 0...255.
    package var green: UInt8
    /// Blue, 0...255.
    package var blue: UInt8

    /// A color from its three 8-bit components.
    package init(red: UInt8, green: UInt8, blue: UInt8) {
        self.red = red
        self.green = green
        self.blue = blue
    }

    /// Whether text over this color reads better in black than in white (relative luminance over ~0.5).
    package var prefersDarkText: Bool {
        0.2126 * Double(red) + 0.7152 * Double(green) + 0.0722 * Double(blue) > 140
    }

    /// The color as `rgb(r, g, b)`.
    package var description: String { "rgb(\(red), \(green), \(blue))" }
}
