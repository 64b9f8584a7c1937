/// The resampling weights of one axis, computed exactly as Pillow computes them for its
/// `BILINEAR` filter (`precompute_coeffs` and `normalize_coeffs_8bpc` in `Resample.c`).
///
/// For every output position the window of input positions `first[i] ..< first[i] + count[i]` and
/// its fixed-point weights (22 fractional bits) are kept. Reproducing every floating-point step in
/// the same order is what makes the output bit-identical to `Image.resize(size, Image.BILINEAR)`:
///
/// - `scale = inSize / outSize`, `filterscale = max(scale, 1)`, `support = 1 * filterscale`;
/// - `center = (i + 0.5) * scale`; the window bounds are `Int(center ∓ support + 0.5)` (truncation
///   toward zero, as a C cast), clamped to `0 ... inSize`;
/// - weight of input `x` = `triangle((x - center + 0.5) / filterscale)`, normalised by the sum;
/// - fixed point: `Int32(0.5 + w * 2^22)` (`PRECISION_BITS = 32 - 8 - 2`).
struct PillowAxis: Sendable {
    /// Fractional bits of the fixed-point weights (Pillow's `PRECISION_BITS` for 8-bit images).
    static let precisionBits: Int32 = 22

    /// Input size along the axis.
    let inSize: Int
    /// Output size along the axis.
    let outSize: Int
    /// Pillow's `ksize`: the largest window any output position can have (the stride of `weights`).
    let stride: Int
    /// The largest window actually used.
    let maxCount: Int
    /// First input position of each output position's window.
    let first: [Int]
    /// Number of input positions in each window.
    let count: [Int]
    /// Fixed-point weights, `stride` per output position (unused slots are zero).
    let weights: [Int32]
    /// Whether a sum can leave 0 ... 255 after rounding, so that Pillow's clip matters. The weights
    /// are never negative; a window's rounded weights exceed 2^22 by at most half a unit each, so
    /// this is only true for windows of more than about 16,000 taps.
    let needsClip: Bool

    /// Computes the weights for resampling `inSize` positions to `outSize` positions.
    init(inSize: Int, outSize: Int) {
        precondition(inSize > 0 && outSize > 0, "PillowAxis: sizes must be positive")
        self.inSize = inSize
        self.outSize = outSize
        // Pillow passes the box edges as C floats: in1 - in0 is a float subtraction.
        let scale = Double(Float(inSize) - Float(0)) / Double(outSize)
        let filterscale = max(scale, 1.0)
        let support = 1.0 * filterscale
        let ksize = Int(support.rounded(.up)) * 2 + 1
        let invFilterscale = 1.0 / filterscale
        let one = Double(Int32(1) << PillowAxis.precisionBits)

        var first = [Int](repeating: 0, count: outSize)
        var count = [Int](repeating: 0, count: outSize)
        var weights = [Int32](repeating: 0, count: outSize * ksize)
        var maxCount = 0
        var maxSum: Int64 = 0
        var window = [Double](repeating: 0, count: ksize)
        for i in 0..<outSize {
            let center = 0.0 + (Double(i) + 0.5) * scale
            var lo = Int(center - support + 0.5)
            if lo < 0 { lo = 0 }
            var hi = Int(center + support + 0.5)
            if hi > inSize { hi = inSize }
            let n = hi - lo
            var total = 0.0
            for x in 0..<n {
                let w = PillowAxis.triangle((Double(x + lo) - center + 0.5) * invFilterscale)
                window[x] = w
                total += w
            }
            for x in 0..<n {
                let w = total != 0.0 ? window[x] / total : window[x]
                // normalize_coeffs_8bpc: round half away from zero, then truncate as a C cast does.
                weights[i * ksize + x] = w < 0 ? Int32(-0.5 + w * one) : Int32(0.5 + w * one)
            }
            var sum: Int64 = 0
            for x in 0..<n { sum += Int64(weights[i * ksize + x]) }
            maxSum = max(maxSum, sum)
            first[i] = lo
            count[i] = n
            maxCount = max(maxCount, n)
        }
        self.stride = ksize
        self.maxCount = maxCount
        self.first = first
        self.count = count
        self.weights = weights
        needsClip = 255 * maxSum + (1 << 21) >= (256 << 22)
    }

    /// Pillow's `bilinear_filter`: the triangle of half-width 1.
    @inline(__always)
    static func triangle(_ x: Double) -> Double {
        let a = x < 0 ? -x : x
        return a < 1.0 ? 1.0 - a : 0.0
    }

    /// The first input row used by any output position (Pillow's `ybox_first`).
    var firstUsed: Int { first[0] }
    /// One past the last input position used by any output position (Pillow's `ybox_last`).
    var endUsed: Int { first[outSize - 1] + count[outSize - 1] }
}
