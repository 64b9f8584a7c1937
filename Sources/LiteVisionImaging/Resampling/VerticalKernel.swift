import CImagingKernels

/// The vertical pass: `taps` rows of 8-bit elements in, one row out (Pillow's
/// `ImagingResampleVertical_8bpc`, bit-exact).
///
/// Taps are taken two rows at a time: the bytes of both rows are interleaved into 16-bit pairs and
/// multiplied with `pmaddwd` by the pair of high parts (`K >> 11`) and the pair of low parts
/// (`K & 2047`) of their weights; the exact sum is `(high << 11) + low`. Rows of 16 bytes or more can go
/// through the AVX2 form of the loop (`CImagingKernels`), which computes the same integers.
enum VerticalKernel {
    /// The weights of one output row as `pmaddwd` operands: for each pair of taps, the vector of
    /// high parts and the vector of low parts. `pairs` must hold `(taps + 1) / 2 * 2` vectors.
    @inline(__always)
    static func prepareWeights(
        _ weights: UnsafePointer<Int32>, taps: Int,
        into pairs: UnsafeMutablePointer<SIMD8<Int16>>
    ) {
        var t = 0
        var slot = 0
        while t < taps {
            let a = weights[t]
            let b = t &+ 1 < taps ? weights[t &+ 1] : 0
            let high = SIMD2<Int16>(Int16(truncatingIfNeeded: a >> 11), Int16(truncatingIfNeeded: b >> 11))
            let low = SIMD2<Int16>(Int16(truncatingIfNeeded: a & 2047), Int16(truncatingIfNeeded: b & 2047))
            pairs[slot] = SIMD8(
                lowHalf: SIMD4(lowHalf: high, highHalf: high), highHalf: SIMD4(lowHalf: high, highHalf: high))
            pairs[slot &+ 1] = SIMD8(
                lowHalf: SIMD4(lowHalf: low, highHalf: low), highHalf: SIMD4(lowHalf: low, highHalf: low))
            slot &+= 2
            t &+= 2
        }
    }

    /// `out[x] = clip((2^21 + Σ_t K_t * rows[t][x]) >> 22)` for `x` in `0 ..< count`.
    /// - Parameters:
    ///   - rows: `taps` row pointers, each readable for `count` bytes.
    ///   - weights: the fixed-point weights (for the scalar tail).
    ///   - pairs: the weights prepared by ``prepareWeights(_:taps:into:)``.
    ///   - avx2: whether to run the AVX2 kernel (the processor has been checked to support it).
    @inline(__always)
    static func resampleRow(
        rows: UnsafePointer<UnsafePointer<UInt8>>, weights: UnsafePointer<Int32>,
        pairs: UnsafePointer<SIMD8<Int16>>, taps: Int, count: Int,
        out: UnsafeMutablePointer<UInt8>, avx2: Bool
    ) {
        if avx2 && count >= 16 {
            litevision_avx2_vertical_bytes(
                rows, UnsafeRawPointer(pairs), taps, count, out)
            return
        }
        guard count >= 16 else {
            scalarRow(rows: rows, weights: weights, taps: taps, from: 0, count: count, out: out)
            return
        }
        var x = 0
        while x < count {
            let at = min(x, count &- 16)
            chunk16(rows: rows, pairs: pairs, taps: taps, at: at, out: out)
            x &+= 16
        }
    }

    /// Sixteen output bytes at offset `at`.
    @inline(__always)
    static func chunk16(
        rows: UnsafePointer<UnsafePointer<UInt8>>, pairs: UnsafePointer<SIMD8<Int16>>,
        taps: Int, at: Int, out: UnsafeMutablePointer<UInt8>
    ) {
        var h0 = SIMD4<Int32>(), h1 = SIMD4<Int32>(), h2 = SIMD4<Int32>(), h3 = SIMD4<Int32>()
        var l0 = SIMD4<Int32>(), l1 = SIMD4<Int32>(), l2 = SIMD4<Int32>(), l3 = SIMD4<Int32>()
        var t = 0
        var k = pairs
        while t < taps {
            let ra = UnsafeRawPointer(rows[t] + at)
            let rb = UnsafeRawPointer(rows[t &+ 1 < taps ? t &+ 1 : t] + at)
            let a = SIMD16<UInt32>(truncatingIfNeeded: ra.loadUnaligned(as: SIMD16<UInt8>.self))
            let b = SIMD16<UInt32>(truncatingIfNeeded: rb.loadUnaligned(as: SIMD16<UInt8>.self))
            let ab = a | (b &<< 16)
            let kh = k[0], kl = k[1]
            let q0 = SIMDOps.halves(ab.lowHalf.lowHalf), q1 = SIMDOps.halves(ab.lowHalf.highHalf)
            let q2 = SIMDOps.halves(ab.highHalf.lowHalf), q3 = SIMDOps.halves(ab.highHalf.highHalf)
            h0 &+= SIMDOps.multiplyAddPairs(q0, kh); l0 &+= SIMDOps.multiplyAddPairs(q0, kl)
            h1 &+= SIMDOps.multiplyAddPairs(q1, kh); l1 &+= SIMDOps.multiplyAddPairs(q1, kl)
            h2 &+= SIMDOps.multiplyAddPairs(q2, kh); l2 &+= SIMDOps.multiplyAddPairs(q2, kl)
            h3 &+= SIMDOps.multiplyAddPairs(q3, kh); l3 &+= SIMDOps.multiplyAddPairs(q3, kl)
            k += 2
            t &+= 2
        }
        let v0 = SIMDOps.roundToByte((h0 &<< 11) &+ l0), v1 = SIMDOps.roundToByte((h1 &<< 11) &+ l1)
        let v2 = SIMDOps.roundToByte((h2 &<< 11) &+ l2), v3 = SIMDOps.roundToByte((h3 &<< 11) &+ l3)
        let bytes = SIMD16<UInt8>(
            truncatingIfNeeded: SIMD16<Int32>(
                lowHalf: SIMD8(lowHalf: v0, highHalf: v1),
                highHalf: SIMD8(lowHalf: v2, highHalf: v3)))
        UnsafeMutableRawPointer(out + at).storeBytes(of: bytes, as: SIMD16<UInt8>.self)
    }

    /// The plain loop, for rows shorter than one vector.
    @inline(__always)
    static func scalarRow(
        rows: UnsafePointer<UnsafePointer<UInt8>>, weights: UnsafePointer<Int32>,
        taps: Int, from: Int, count: Int, out: UnsafeMutablePointer<UInt8>
    ) {
        for x in from..<count {
            var sum: Int32 = 0
            for t in 0..<taps { sum &+= Int32(rows[t][x]) &* weights[t] }
            out[x] = SIMDOps.roundToByte(sum)
        }
    }
}
