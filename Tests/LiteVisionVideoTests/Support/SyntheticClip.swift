import LiteVisionImaging

/// A generated test clip: a colour gradient with a white square sliding across it and a dark bar sliding down.
enum SyntheticClip {
    /// Frame `index` of a `width` x `height` clip, in `format` (rgb8, rgba8 or bgra8).
    static func frame(_ index: Int, width: Int, height: Int, format: PixelFormat = .rgb8) -> ImageBuffer {
        let channels = format.bytesPerPixel
        var pixels = [UInt8](repeating: 255, count: width * height * channels)
        let squareX = (index * 7) % max(1, width - 40), squareY = height / 3
        let barY = (index * 5) % max(1, height - 12)
        for y in 0..<height {
            for x in 0..<width {
                var red = UInt8(x * 255 / max(1, width - 1))
                var green = UInt8(y * 255 / max(1, height - 1))
                var blue: UInt8 = 96
                if (squareX..<squareX + 40).contains(x), (squareY..<squareY + 40).contains(y) {
                    (red, green, blue) = (250, 250, 250)
                }
                if (barY..<barY + 12).contains(y) { (red, green, blue) = (20, 30, 40) }
                let offset = (y * width + x) * channels
                switch format {
                case .bgra8: (pixels[offset], pixels[offset + 1], pixels[offset + 2]) = (blue, green, red)
                case .gray8: pixels[offset] = UInt8((Int(red) + Int(green) + Int(blue)) / 3)
                default: (pixels[offset], pixels[offset + 1], pixels[offset + 2]) = (red, green, blue)
                }
            }
        }
        return ImageBuffer(width: width, height: height, format: format, pixels: pixels)
    }
}
