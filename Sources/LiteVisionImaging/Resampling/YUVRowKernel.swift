/// One row of YCbCr 4:2:0 to RGB8: eight pixels (four chroma samples) per SIMD step, using
/// `pmaddwd` for every product; the rest of the row pixel by pixel with the same integers.
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
        }
    }

    /// Converts `width` pixels of luma at `y` with the chroma of `chroma` into RGB8 at `out`.
    static func convertRow(y: UnsafePointer<UInt8>, chroma: Chroma, width: Int, k: YUVCoefficients,
                           vectors v: Vectors, out: UnsafeMutablePointer<UInt8>) {
        let yRaw = UnsafeRawPointer(y)
        let outRaw = UnsafeMutableRawPointer(out)
        var x = 0
        // Eight pixels per step; `x + 8 < width` leaves room for the fourth byte of the last store.
        while x &+ 8 < width {
            let cc: SIMD8<Int16>
            switch chroma {
            case .interleaved(let plane, _):
                let c = UnsafeRawPointer(plane).loadUnaligned(fromByteOffset: x, as: SIMD8<UInt8>.self)
                cc = SIMD8<Int16>(truncatingIfNeeded: c) &- 128
            case .planar(let cb, let cr):
                let u = SIMD4<Int32>(truncatingIfNeeded: UnsafeRawPointer(cb).loadUnaligned(fromByteOffset: x >> 1, as: SIMD4<UInt8>.self)) &- 128
                let w = SIMD4<Int32>(truncatingIfNeeded: UnsafeRawPointer(cr).loadUnaligned(fromByteOffset: x >> 1, as: SIMD4<UInt8>.self)) &- 128
                cc = unsafeBitCast((u & 0xFFFF) | (w &<< 16), to: SIMD8<Int16>.self)
            }
            let red = SIMDOps.multiplyAddPairs(cc, v.red)
            let green = SIMDOps.multiplyAddPairs(cc, v.green)
            let blue = SIMDOps.multiplyAddPairs(cc, v.blue)
            let y32 = SIMD8<Int32>(truncatingIfNeeded: yRaw.loadUnaligned(fromByteOffset: x, as: SIMD8<UInt8>.self))
            let yLow = SIMDOps.multiplyAddPairs(unsafeBitCast(y32.lowHalf, to: SIMD8<Int16>.self), v.luma) &+ v.bias
            let yHigh = SIMDOps.multiplyAddPairs(unsafeBitCast(y32.highHalf, to: SIMD8<Int16>.self), v.luma) &+ v.bias
            let low = pack(yLow, SIMD4(red[0], red[0], red[1], red[1]), SIMD4(green[0], green[0], green[1], green[1]),
                           SIMD4(blue[0], blue[0], blue[1], blue[1]))
            let high = pack(yHigh, SIMD4(red[2], red[2], red[3], red[3]), SIMD4(green[2], green[2], green[3], green[3]),
                            SIMD4(blue[2], blue[2], blue[3], blue[3]))
            let o = outRaw + x &* 3
            o.storeBytes(of: low[0], as: Int32.self)
            o.storeBytes(of: low[1], toByteOffset: 3, as: Int32.self)
            o.storeBytes(of: low[2], toByteOffset: 6, as: Int32.self)
            o.storeBytes(of: low[3], toByteOffset: 9, as: Int32.self)
            o.storeBytes(of: high[0], toByteOffset: 12, as: Int32.self)
            o.storeBytes(of: high[1], toByteOffset: 15, as: Int32.self)
            o.storeBytes(of: high[2], toByteOffset: 18, as: Int32.self)
            o.storeBytes(of: high[3], toByteOffset: 21, as: Int32.self)
            x &+= 8
        }
        while x < width {
            let cb: UInt8, cr: UInt8
            switch chroma {
            case .interleaved(let plane, let cbFirst):
                let a = plane[x & ~1], b = plane[(x & ~1) &+ 1]
                (cb, cr) = cbFirst ? (a, b) : (b, a)
            case .planar(let cbPlane, let crPlane):
                (cb, cr) = (cbPlane[x >> 1], crPlane[x >> 1])
            }
            let (r, g, b) = k.rgb(y: y[x], cb: cb, cr: cr)
            out[x &* 3] = r
            out[x &* 3 &+ 1] = g
            out[x &* 3 &+ 2] = b
            x &+= 1
        }
    }

    /// Four pixels `R | G << 8 | B << 16` from the luma term and the chroma terms.
    @inline(__always)
    static func pack(_ y: SIMD4<Int32>, _ r: SIMD4<Int32>, _ g: SIMD4<Int32>, _ b: SIMD4<Int32>) -> SIMD4<Int32> {
        let shift = SIMD4<Int32>(repeating: YUVCoefficients.fractionBits)
        return clip((y &+ r) &>> shift) | (clip((y &+ g) &>> shift) &<< 8) | (clip((y &+ b) &>> shift) &<< 16)
    }

    @inline(__always)
    static func clip(_ v: SIMD4<Int32>) -> SIMD4<Int32> {
        v.replacing(with: 0, where: v .< 0).replacing(with: 255, where: v .> 255)
    }
}
