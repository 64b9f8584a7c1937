import CImagingKernels

/// The vertical pass over rows in paired form (`p | p << 23` per element, as the horizontal pass
/// writes them into its ring): one aligned load and one `pmaddwd` per tap and four elements, no
/// shuffling. Bit-exact with Pillow's `ImagingResampleVertical_8bpc`. Rows of 16 elements or more can go
/// through the AVX2 form of the loop (`CImagingKernels`), which computes the same integers.
enum VerticalPairedKernel {
    /// The `pmaddwd` operand of each tap: the weight pair `(K - 128 * Kh, Kh)`, `Kh = min(K >> 7, 32767)`,
    /// repeated over the four lanes.
    @inline(__always)
    static func prepareWeights(_ weights: UnsafePointer<Int32>, taps: Int, into out: UnsafeMutablePointer<SIMD8<Int16>>)
    {
        for t in 0..<taps {
            let k = Int(weights[t])
            let high = min(k >> 7, 32767)
            let pair = SIMD2<Int16>(Int16(truncatingIfNeeded: k - high * 128), Int16(truncatingIfNeeded: high))
            let four = SIMD4(lowHalf: pair, highHalf: pair)
            out[t] = SIMD8(lowHalf: four, highHalf: four)
        }
    }

    /// `out[x] = (2^21 + Σ_t K_t * rows[t][x]) >> 22` for `x` in `0 ..< count`.
    /// - Parameters:
    ///   - rows: `taps` paired rows, 16-byte aligned, each holding `count` lanes.
    ///   - pairs: the weights prepared by ``prepareWeights(_:taps:into:)``.
    ///   - weights: the plain weights (for rows shorter than 16 elements).
    ///   - avx2: whether to run the AVX2 kernel (the processor has been checked to support it).
    static func resampleRow<R: Rounding>(
        rows: UnsafePointer<UnsafeRawPointer>, pairs: UnsafePointer<SIMD8<Int16>>,
        weights: UnsafePointer<Int32>, taps: Int, count: Int,
        out: UnsafeMutablePointer<UInt8>, _: R.Type, avx2: Bool
    ) {
        if avx2 && count >= 16 {
            litevision_avx2_vertical_paired(
                rows, UnsafeRawPointer(pairs), taps, count, out,
                R.clips ? 1 : 0)
            return
        }
        guard count >= 16 else {
            for x in 0..<count {
                var sum: Int32 = 0
                for t in 0..<taps {
                    sum &+= Int32(rows[t].load(fromByteOffset: x &* 4, as: UInt32.self) & 0xFF) &* weights[t]
                }
                out[x] = UInt8(truncatingIfNeeded: R.round(SIMD4(repeating: sum))[0])
            }
            return
        }
        var x = 0
        while x < count {
            let at = min(x, count &- 16)
            let offset = at &* 4
            var a0 = SIMD4<Int32>(), a1 = SIMD4<Int32>(), a2 = SIMD4<Int32>(), a3 = SIMD4<Int32>()
            for t in 0..<taps {
                let r = rows[t] + offset
                let k = pairs[t]
                a0 &+= SIMDOps.multiplyAddPairs(r.loadUnaligned(as: SIMD8<Int16>.self), k)
                a1 &+= SIMDOps.multiplyAddPairs(r.loadUnaligned(fromByteOffset: 16, as: SIMD8<Int16>.self), k)
                a2 &+= SIMDOps.multiplyAddPairs(r.loadUnaligned(fromByteOffset: 32, as: SIMD8<Int16>.self), k)
                a3 &+= SIMDOps.multiplyAddPairs(r.loadUnaligned(fromByteOffset: 48, as: SIMD8<Int16>.self), k)
            }
            let v = SIMD16<Int32>(
                lowHalf: SIMD8(lowHalf: R.round(a0), highHalf: R.round(a1)),
                highHalf: SIMD8(lowHalf: R.round(a2), highHalf: R.round(a3)))
            UnsafeMutableRawPointer(out + at).storeBytes(
                of: SIMD16<UInt8>(truncatingIfNeeded: v), as: SIMD16<UInt8>.self)
            x &+= 16
        }
    }
}
