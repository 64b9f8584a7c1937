/// Compile-time choices the resampling kernels are specialised on, so that the per-pixel code has no
/// branches: how sums are rounded to bytes, where a result pixel goes, and the channel order.

/// Turns Pillow's fixed-point sums into byte values: `(sum + 2^21) >> 22`, clipped to 0 ... 255.
protocol Rounding {
    static func round(_ sum: SIMD4<Int32>) -> SIMD4<Int32>
    /// Whether the result is clipped (the flag the AVX2 kernels take).
    static var clips: Bool { get }
}

/// Rounding without the clip. Exact whenever `255 * (sum of a window's weights) + 2^21` stays below
/// `256 << 22`, which holds for every window of fewer than 16,000 taps (``PillowAxis/needsClip``);
/// the weights are never negative, so the result is never below zero either.
enum UnclippedRounding: Rounding {
    static var clips: Bool { false }

    @inline(__always)
    static func round(_ sum: SIMD4<Int32>) -> SIMD4<Int32> {
        (sum &+ SIMD4(repeating: 1 << 21)) &>> SIMD4(repeating: 22)
    }
}

/// Rounding with Pillow's clip, for the (extreme) plans that may need it.
enum ClippedRounding: Rounding {
    static var clips: Bool { true }

    @inline(__always)
    static func round(_ sum: SIMD4<Int32>) -> SIMD4<Int32> {
        SIMDOps.roundToByte(sum)
    }
}

/// Where the horizontal pass puts an output pixel (its R, G, B values in lanes 0 ... 2).
protocol PixelSink {
    /// Stores pixel `i` of a row; `last` is true for the row's last pixel only.
    static func store(_ value: SIMD4<Int32>, pixel i: Int, last: Bool, to out: UnsafeMutableRawPointer)
}

/// Three bytes per pixel (the final image). All but the last pixel are written with one 4-byte
/// store whose fourth byte the next pixel overwrites.
enum ByteSink: PixelSink {
    @inline(__always)
    static func store(_ value: SIMD4<Int32>, pixel i: Int, last: Bool, to out: UnsafeMutableRawPointer) {
        let bytes = SIMD4<UInt8>(truncatingIfNeeded: value)
        if last {
            out.storeBytes(of: bytes[0], toByteOffset: i &* 3, as: UInt8.self)
            out.storeBytes(of: bytes[1], toByteOffset: i &* 3 &+ 1, as: UInt8.self)
            out.storeBytes(of: bytes[2], toByteOffset: i &* 3 &+ 2, as: UInt8.self)
        } else {
            out.storeBytes(of: unsafeBitCast(bytes, to: UInt32.self), toByteOffset: i &* 3, as: UInt32.self)
        }
    }
}

/// The paired form (`p | p << 23` per element, see ``HorizontalTable``) that the vertical pass
/// reads. Writes 16 bytes per pixel at a 12-byte pitch, so a paired row needs 4 bytes of slack.
enum PairedSink: PixelSink {
    @inline(__always)
    static func store(_ value: SIMD4<Int32>, pixel i: Int, last: Bool, to out: UnsafeMutableRawPointer) {
        let u = SIMD4<UInt32>(truncatingIfNeeded: value)
        out.storeBytes(of: u | (u &<< 23), toByteOffset: i &* 12, as: SIMD4<UInt32>.self)
    }
}

/// Maps the lanes of a four-element source pixel to R, G, B.
protocol ChannelOrder {
    static func toRGB(_ v: SIMD4<Int32>) -> SIMD4<Int32>
}

/// RGBA: lanes are already R, G, B.
enum RGBAOrder: ChannelOrder {
    @inline(__always) static func toRGB(_ v: SIMD4<Int32>) -> SIMD4<Int32> { v }
}

/// BGRA: swap lanes 0 and 2.
enum BGRAOrder: ChannelOrder {
    @inline(__always) static func toRGB(_ v: SIMD4<Int32>) -> SIMD4<Int32> { SIMD4(v[2], v[1], v[0], v[3]) }
}
