/// Small SIMD building blocks shared by the resampling kernels.
///
/// They are written so that LLVM lowers them to single SSE2 instructions on the baseline x86-64
/// target Swift compiles for (no AVX needed): `multiplyAddPairs` becomes `pmaddwd`, the widenings
/// become `punpck` sequences.
enum SIMDOps {
    /// Multiplies the 16-bit lanes of `a` and `b` and adds adjacent products into 32-bit lanes
    /// (`pmaddwd`): `result[i] = a[2i] * b[2i] + a[2i+1] * b[2i+1]`.
    @inline(__always)
    static func multiplyAddPairs(_ a: SIMD8<Int16>, _ b: SIMD8<Int16>) -> SIMD4<Int32> {
        let products = SIMD8<Int32>(truncatingIfNeeded: a) &* SIMD8<Int32>(truncatingIfNeeded: b)
        return products.evenHalf &+ products.oddHalf
    }

    /// Reinterprets four 32-bit lanes as eight 16-bit lanes (low half first).
    @inline(__always)
    static func halves(_ v: SIMD4<UInt32>) -> SIMD8<Int16> {
        unsafeBitCast(v, to: SIMD8<Int16>.self)
    }

    /// Rounds Pillow's fixed-point sums to bytes: `(sum + 2^21) >> 22`, clipped to 0 ... 255.
    @inline(__always)
    static func roundToByte(_ sum: SIMD4<Int32>) -> SIMD4<Int32> {
        clampToByte((sum &+ SIMD4(repeating: 1 << 21)) &>> SIMD4(repeating: 22))
    }

    /// Clips to 0 ... 255 with shifts and masks only (SIMD comparisons are lowered lane by lane).
    @inline(__always)
    static func clampToByte(_ v: SIMD4<Int32>) -> SIMD4<Int32> {
        let positive = v & ~(v &>> 31)
        let over = positive &- 255
        return 255 &+ (over & (over &>> 31))
    }

    /// ``clampToByte(_:)-(SIMD4<Int32>)`` for 16-bit lanes.
    @inline(__always)
    static func clampToByte(_ v: SIMD8<Int16>) -> SIMD8<Int16> {
        let positive = v & ~(v &>> 15)
        let over = positive &- 255
        return 255 &+ (over & (over &>> 15))
    }

    /// Scalar form of ``roundToByte(_:)-(SIMD4<Int32>)``.
    @inline(__always)
    static func roundToByte(_ sum: Int32) -> UInt8 {
        let v = (sum &+ (1 << 21)) &>> 22
        return v > 255 ? 255 : (v < 0 ? 0 : UInt8(truncatingIfNeeded: v))
    }
}
