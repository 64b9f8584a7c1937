/// CMYK to RGB conversion for CMYK and YCCK JPEGs, which libjpeg-turbo decodes only to CMYK.
///
/// Like Pillow (and Photoshop, which writes most such files), the stored samples are taken to be
/// inverted ("Adobe" polarity: 255 means no ink). With the stored values `c, m, y, k`, Pillow's
/// conversion amounts to `R = k - k * (255 - c) / 255` with its rounding; this reproduces it exactly.
enum CMYKConversion {
    /// Pillow's `MULDIV255`: `a * b / 255`, rounded to nearest.
    @inline(__always)
    static func mulDiv255(_ a: Int, _ b: Int) -> Int {
        let t = a * b + 128
        return ((t >> 8) + t) >> 8
    }

    /// The RGB value of one stored (inverted) CMYK sample: `k - k * (255 - c) / 255`.
    @inline(__always)
    static func channel(_ storedInk: UInt8, _ storedKey: UInt8) -> UInt8 {
        let key = Int(storedKey)
        return UInt8(clamping: key - mulDiv255(255 - Int(storedInk), key))
    }

    /// Replaces `pixelCount` CMYK pixels (4 bytes each) at the start of `pixels` by RGB pixels
    /// (3 bytes each) and shortens the array to `pixelCount * 3` bytes. Working forwards is safe:
    /// the write position never overtakes the read position.
    static func convertToRGBInPlace(_ pixels: inout [UInt8], pixelCount: Int) {
        pixels.withUnsafeMutableBufferPointer { buffer in
            for i in 0..<pixelCount {
                let source = i * 4, target = i * 3
                let c = buffer[source], m = buffer[source + 1], y = buffer[source + 2], k = buffer[source + 3]
                buffer[target] = channel(c, k)
                buffer[target + 1] = channel(m, k)
                buffer[target + 2] = channel(y, k)
            }
        }
        pixels.removeLast(pixels.count - pixelCount * 3)
    }
}
