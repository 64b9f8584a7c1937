import CImagingKernels

/// One row of YCbCr 4:2:0 to RGB8: eight pixels (four chroma samples) per SIMD step, using
/// `pmaddwd` for every product; the rest of the row pixel by pixel with the same integers.
///
/// With AVX2 the row goes through `litevision_avx2_yuv420_row` (`CImagingKernels`) sixteen pixels at a time
/// first: the same integers again. The Swift step is the fallback; LLVM lowers part of it lane by lane
/// (the clips and the per-pixel stores), about 1 ms for 640×480 on this machine against 0.1 ms for AVX2.
enum YUVRowKernel {
    /// How the chroma samples of a row are stored.
    enum Chroma {
        /// One plane of interleaved pairs (NV12: Cb first; NV21: Cr first).
        case interleaved(UnsafePointer<UInt8>, cbFirst: Bool)
        /// Two planes (I420).
        case planar(cb: UnsafePointer<UInt8>, cr: UnsafePointer<UInt8>)
    }

    /// The `pmaddwd` operands of a conversion, for chroma pairs in a given order.
    struct Vectors {
        let luma: SIMD8<Int16>, red: SIMD8<Int16>, green: SIMD8<Int16>, blue: SIMD8<Int16>
        let bias: SIMD4<Int32>
        /// The six coefficients in the order of `litevision_avx2_yuv420_row`: luma, bias, red Cr, green Cb,
        /// green Cr, blue Cb.
        let scalars: SIMD8<Int32>

        init(_ k: YUVCoefficients, cbFirst: Bool) {
            func pairs(_ a: Int32, _ b: Int32) -> SIMD8<Int16> {
                let p = SIMD2<Int16>(Int16(a), Int16(b))
                let q = SIMD4(lowHalf: p, highHalf: p)
                return SIMD8(lowHalf: q, highHalf: q)
            }
            func ordered(cb: Int32, cr: Int32) -> SIMD8<Int16> { cbFirst ? pairs(cb, cr) : pairs(cr, cb) }
            luma = pairs(k.luma, 0)
            red = ordered(cb: 0, cr: k.redCr)
            green = ordered(cb: k.greenCb, cr: k.greenCr)
            blue = ordered(cb: k.blueCb, cr: 0)
            bias = SIMD4(repeating: k.bias)
            scalars = SIMD8(k.luma, k.bias, k.redCr, k.greenCb, k.greenCr, k.blueCb, 0, 0)
        }
    }

    /// Converts `width` pixels of luma at `y` with the chroma of `chroma` into RGB8 at `out`, with the AVX2
    /// kernel first when `avx2` is true (the processor has been checked to support it).
    static func convertRow(
        y: UnsafePointer<UInt8>, chroma: Chroma, width: Int, k: YUVCoefficients,
        vectors v: Vectors, out: UnsafeMutablePointer<UInt8>, avx2: Bool
    ) {
        var start = 0
        if avx2 && width >= 16 {
            var scalars = v.scalars
            start = withUnsafeBytes(of: &scalars) { coefficients in
                let c = coefficients.baseAddress!.assumingMemoryBound(to: Int32.self)
                switch chroma {
                case .interleaved(let plane, let cbFirst):
                    return litevision_avx2_yuv420_row(y, plane, plane, cbFirst ? 1 : 2, width, c, out)
                case .planar(let cb, let cr):
                    return litevision_avx2_yuv420_row(y, cb, cr, 0, width, c, out)
                }
            }
            if start == width { return }
        }
        switch chroma {
        case .interleaved(let plane, let cbFirst):
            row(
                y: y, chroma: InterleavedChroma(plane: plane, cbFirst: cbFirst), from: start, width: width, k: k,
                v: v, out: out)
        case .planar(let cb, let cr):
            row(y: y, chroma: PlanarChroma(cb: cb, cr: cr), from: start, width: width, k: k, v: v, out: out)
        }
    }

    /// The row loop from pixel `start` (even), specialised per chroma layout.
    @inline(__always)
    static func row<C: ChromaSource>(
        y: UnsafePointer<UInt8>, chroma: C, from start: Int, width: Int, k: YUVCoefficients,
        v: Vectors, out: UnsafeMutablePointer<UInt8>
    ) {
        let yRaw = UnsafeRawPointer(y)
        let outRaw = UnsafeMutableRawPointer(out)
        var x = start
        // Eight pixels per step; `x + 8 < width` leaves room for the fourth byte of the last store.
        while x &+ 8 < width {
            step8(
                chroma.pairs(at: x), yRaw.loadUnaligned(fromByteOffset: x, as: SIMD8<UInt8>.self), v,
                outRaw + x &* 3)
            x &+= 8
        }
        while x < width {
            let (cb, cr) = chroma.sample(x >> 1)
            let (r, g, b) = k.rgb(y: y[x], cb: cb, cr: cr)
            out[x &* 3] = r
            out[x &* 3 &+ 1] = g
            out[x &* 3 &+ 2] = b
            x &+= 1
        }
    }

    /// Eight pixels from four chroma pairs and eight luma bytes, stored as 8 × 4 bytes at a 3-byte
    /// pitch. Kept out of line: small enough for the optimiser to turn every product into `pmaddwd`.
    @inline(never)
    static func step8(_ cc: SIMD8<Int16>, _ luma: SIMD8<UInt8>, _ v: Vectors, _ o: UnsafeMutableRawPointer) {
        let red = SIMDOps.multiplyAddPairs(cc, v.red)
        let green = SIMDOps.multiplyAddPairs(cc, v.green)
        let blue = SIMDOps.multiplyAddPairs(cc, v.blue)
        // (Y, 0) pairs: the luma bytes widened to 32 bits.
        let y32 = SIMD8<UInt32>(truncatingIfNeeded: luma)
        let yLow = SIMDOps.multiplyAddPairs(SIMDOps.halves(y32.lowHalf), v.luma) &+ v.bias
        let yHigh = SIMDOps.multiplyAddPairs(SIMDOps.halves(y32.highHalf), v.luma) &+ v.bias
        let shift = SIMD8<Int32>(repeating: YUVCoefficients.fractionBits)
        let yTerm = SIMD8(lowHalf: yLow, highHalf: yHigh)
        let r = clip((yTerm &+ duplicate(red)) &>> shift)
        let g = clip((yTerm &+ duplicate(green)) &>> shift)
        let b = clip((yTerm &+ duplicate(blue)) &>> shift)
        let px = r | (g &<< 8) | (b &<< 16)
        o.storeBytes(of: px[0], as: Int32.self)
        o.storeBytes(of: px[1], toByteOffset: 3, as: Int32.self)
        o.storeBytes(of: px[2], toByteOffset: 6, as: Int32.self)
        o.storeBytes(of: px[3], toByteOffset: 9, as: Int32.self)
        o.storeBytes(of: px[4], toByteOffset: 12, as: Int32.self)
        o.storeBytes(of: px[5], toByteOffset: 15, as: Int32.self)
        o.storeBytes(of: px[6], toByteOffset: 18, as: Int32.self)
        o.storeBytes(of: px[7], toByteOffset: 21, as: Int32.self)
    }

    /// Each chroma term twice (one per pixel of a horizontal pair).
    @inline(__always)
    static func duplicate(_ c: SIMD4<Int32>) -> SIMD8<Int32> {
        SIMD8(lowHalf: SIMD4(c[0], c[0], c[1], c[1]), highHalf: SIMD4(c[2], c[2], c[3], c[3]))
    }

    /// Clips to 0 ... 255.
    @inline(__always)
    static func clip(_ v: SIMD8<Int32>) -> SIMD8<Int32> {
        SIMD8(lowHalf: SIMDOps.clampToByte(v.lowHalf), highHalf: SIMDOps.clampToByte(v.highHalf))
    }
}

/// Where a row's chroma comes from, for the SIMD loop (four samples as (Cb - 128, Cr - 128) word
/// pairs, or in the stored order for NV21, matching ``YUVRowKernel/Vectors``) and the scalar tail.
protocol ChromaSource {
    /// The four samples for pixels `x ..< x + 8` (`x` even) as 16-bit pairs, 128 subtracted.
    func pairs(at x: Int) -> SIMD8<Int16>
    /// Sample `i` as (Cb, Cr).
    func sample(_ i: Int) -> (UInt8, UInt8)
}

/// NV12 / NV21: one plane of interleaved pairs.
struct InterleavedChroma: ChromaSource {
    let plane: UnsafePointer<UInt8>
    let cbFirst: Bool

    @inline(__always)
    func pairs(at x: Int) -> SIMD8<Int16> {
        SIMD8<Int16>(
            truncatingIfNeeded: UnsafeRawPointer(plane).loadUnaligned(fromByteOffset: x, as: SIMD8<UInt8>.self)) &- 128
    }

    @inline(__always)
    func sample(_ i: Int) -> (UInt8, UInt8) {
        let a = plane[2 &* i], b = plane[2 &* i &+ 1]
        return cbFirst ? (a, b) : (b, a)
    }
}

/// I420: separate Cb and Cr planes.
struct PlanarChroma: ChromaSource {
    let cb: UnsafePointer<UInt8>
    let cr: UnsafePointer<UInt8>

    @inline(__always)
    func pairs(at x: Int) -> SIMD8<Int16> {
        let u =
            SIMD4<Int32>(
                truncatingIfNeeded: UnsafeRawPointer(cb).loadUnaligned(fromByteOffset: x >> 1, as: SIMD4<UInt8>.self))
            &- 128
        let w =
            SIMD4<Int32>(
                truncatingIfNeeded: UnsafeRawPointer(cr).loadUnaligned(fromByteOffset: x >> 1, as: SIMD4<UInt8>.self))
            &- 128
        return unsafeBitCast((u & 0xFFFF) | (w &<< 16), to: SIMD8<Int16>.self)
    }

    @inline(__always)
    func sample(_ i: Int) -> (UInt8, UInt8) { (cb[i], cr[i]) }
}
