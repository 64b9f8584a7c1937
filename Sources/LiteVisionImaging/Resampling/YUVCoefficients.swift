/// The range of the luma and chroma codes of a YUV image.
public enum YUVRange: Sendable, Equatable {
    /// Full range (JPEG/JFIF): Y, Cb and Cr use 0 ... 255.
    case full
    /// Video range (BT.601 "limited"): Y uses 16 ... 235, Cb and Cr 16 ... 240.
    case video
}

/// BT.601 YCbCr → RGB in fixed point with 13 fractional bits.
///
/// Full range (JFIF):  R = Y + 1.402 Cr',  G = Y - 0.344136 Cb' - 0.714136 Cr',  B = Y + 1.772 Cb'.
/// Video range:        Y' = 255/219 (Y - 16), and the chroma factors scaled by 255/224:
///                     R = Y' + 1.596027 Cr',  G = Y' - 0.391762 Cb' - 0.812968 Cr',  B = Y' + 2.017232 Cb',
/// with Cb' = Cb - 128 and Cr' = Cr - 128; results are rounded and clipped to 0 ... 255. Every
/// coefficient fits in 16 bits, so the SIMD path multiplies with `pmaddwd`.
struct YUVCoefficients: Sendable {
    static let fractionBits: Int32 = 13
    /// Luma gain and the constant added to `Y * luma` (rounding, and the -16 offset for video range).
    let luma: Int32, bias: Int32
    /// Chroma gains (green ones negative).
    let redCr: Int32, greenCb: Int32, greenCr: Int32, blueCb: Int32

    init(_ range: YUVRange) {
        func fixed(_ x: Double) -> Int32 { Int32((x * 8192).rounded()) }
        switch range {
        case .full:
            luma = 8192
            bias = 4096
            redCr = fixed(1.402); greenCb = -fixed(0.344136); greenCr = -fixed(0.714136); blueCb = fixed(1.772)
        case .video:
            luma = fixed(255.0 / 219.0)
            bias = 4096 - 16 * fixed(255.0 / 219.0)
            redCr = fixed(1.596027); greenCb = -fixed(0.391762); greenCr = -fixed(0.812968); blueCb = fixed(2.017232)
        }
    }

    /// One pixel, scalar (the SIMD path computes exactly the same integers).
    @inline(__always)
    func rgb(y: UInt8, cb: UInt8, cr: UInt8) -> (UInt8, UInt8, UInt8) {
        let yTerm = Int32(y) &* luma &+ bias
        let cbv = Int32(cb) &- 128, crv = Int32(cr) &- 128
        return (
            YUVCoefficients.clip((yTerm &+ redCr &* crv) >> YUVCoefficients.fractionBits),
            YUVCoefficients.clip((yTerm &+ greenCb &* cbv &+ greenCr &* crv) >> YUVCoefficients.fractionBits),
            YUVCoefficients.clip((yTerm &+ blueCb &* cbv) >> YUVCoefficients.fractionBits)
        )
    }

    @inline(__always)
    static func clip(_ v: Int32) -> UInt8 { v < 0 ? 0 : (v > 255 ? 255 : UInt8(truncatingIfNeeded: v)) }
}
