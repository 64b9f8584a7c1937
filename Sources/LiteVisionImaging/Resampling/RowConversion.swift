/// Per-row conversion of 8-bit interleaved pixels to tightly packed RGB8.
enum RowConversion {
    /// Converts `width` pixels of `format` at `source` into RGB8 at `destination` (3 bytes each).
    /// The alpha byte of four-byte formats is dropped; gray is replicated into the three channels.
    @inline(__always)
    static func toRGB(
        _ source: UnsafePointer<UInt8>, format: PixelFormat, width: Int,
        into destination: UnsafeMutablePointer<UInt8>
    ) {
        switch format {
        case .rgb8:
            destination.update(from: source, count: width &* 3)
        case .rgba8:
            fourToThree(source, width: width, into: destination, red: 0, blue: 2)
        case .bgra8:
            fourToThree(source, width: width, into: destination, red: 2, blue: 0)
        case .gray8:
            for x in 0..<width {
                let g = source[x]
                let o = destination + x &* 3
                o[0] = g
                o[1] = g
                o[2] = g
            }
        }
    }

    /// Four bytes per pixel to three, taking channels `red`, 1 and `blue`.
    @inline(__always)
    static func fourToThree(
        _ source: UnsafePointer<UInt8>, width: Int,
        into destination: UnsafeMutablePointer<UInt8>, red: Int, blue: Int
    ) {
        // Four pixels at a time with one 16-byte load; the last pixels one by one.
        var x = 0
        let raw = UnsafeRawPointer(source)
        while x &+ 4 <= width {
            let v = raw.loadUnaligned(fromByteOffset: x &* 4, as: SIMD16<UInt8>.self)
            let o = destination + x &* 3
            o[0] = v[red]; o[1] = v[1]; o[2] = v[blue]
            o[3] = v[4 &+ red]; o[4] = v[5]; o[5] = v[4 &+ blue]
            o[6] = v[8 &+ red]; o[7] = v[9]; o[8] = v[8 &+ blue]
            o[9] = v[12 &+ red]; o[10] = v[13]; o[11] = v[12 &+ blue]
            x &+= 4
        }
        while x < width {
            let s = source + x &* 4
            let o = destination + x &* 3
            o[0] = s[red]; o[1] = s[1]; o[2] = s[blue]
            x &+= 1
        }
    }
}
