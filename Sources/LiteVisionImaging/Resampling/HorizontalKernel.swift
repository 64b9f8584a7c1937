/// The horizontal pass: one source row in, one row of `outCount` RGB8 pixels out (Pillow's
/// `ImagingResampleHorizontal_8bpc`, bit-exact).
///
/// The row is first widened into a *paired row* (see ``HorizontalTable``), once, so that the two
/// windows every source byte belongs to read it ready for `pmaddwd`.
enum HorizontalKernel {
    /// Writes the paired form (`p | p << 23`, four bytes per element) of `count` bytes at `source`
    /// to `paired`, which must be 16-byte aligned and hold `count` 32-bit lanes.
    @inline(__always)
    static func pairRow(_ source: UnsafePointer<UInt8>, count: Int, into paired: UnsafeMutableRawPointer) {
        let raw = UnsafeRawPointer(source)
        var i = 0
        while i &+ 16 <= count {
            let d = SIMD16<UInt32>(truncatingIfNeeded: raw.loadUnaligned(fromByteOffset: i, as: SIMD16<UInt8>.self))
            paired.storeBytes(of: d | (d &<< 23), toByteOffset: i &* 4, as: SIMD16<UInt32>.self)
            i &+= 16
        }
        while i < count {
            let d = UInt32(source[i])
            paired.storeBytes(of: d | (d &<< 23), toByteOffset: i &* 4, as: UInt32.self)
            i &+= 1
        }
    }

    /// Resamples one paired row into `outCount` RGB8 pixels at `out`.
    /// - Parameters:
    ///   - paired: the paired row, 16-byte aligned, `table.pairedRowVectors` vectors (tail zero).
    ///   - weights: `table.weights`.
    ///   - swapRedBlue: for four-element pixels, whether the source is BGRA.
    @inline(__always)
    static func resampleRow(paired: UnsafeRawPointer, table: HorizontalTable,
                            weights: UnsafePointer<SIMD8<Int16>>, starts: UnsafePointer<Int>,
                            outCount: Int, swapRedBlue: Bool, out: UnsafeMutablePointer<UInt8>) {
        switch table.elementsPerPixel {
        case 3: row3(paired, table.vectorsPerPixel, weights, starts, outCount, out)
        case 4:
            if swapRedBlue {
                row4(paired, table.vectorsPerPixel, weights, starts, outCount, out, red: 2, blue: 0)
            } else {
                row4(paired, table.vectorsPerPixel, weights, starts, outCount, out, red: 0, blue: 2)
            }
        default: row1(paired, table.vectorsPerPixel, weights, starts, outCount, out)
        }
    }

    /// Three elements per pixel: three accumulators whose lanes hold channels `(4j + lane) % 3`.
    @inline(__always)
    static func row3(_ paired: UnsafeRawPointer, _ vectors: Int, _ weights: UnsafePointer<SIMD8<Int16>>,
                     _ starts: UnsafePointer<Int>, _ outCount: Int, _ out: UnsafeMutablePointer<UInt8>) {
        for i in 0..<outCount {
            var p = paired + starts[i] &* 16
            var k = weights + i &* vectors
            var a0 = SIMD4<Int32>(), a1 = SIMD4<Int32>(), a2 = SIMD4<Int32>()
            var j = 0
            while j &+ 3 <= vectors {
                a0 &+= SIMDOps.multiplyAddPairs(p.load(as: SIMD8<Int16>.self), k[0])
                a1 &+= SIMDOps.multiplyAddPairs(p.load(fromByteOffset: 16, as: SIMD8<Int16>.self), k[1])
                a2 &+= SIMDOps.multiplyAddPairs(p.load(fromByteOffset: 32, as: SIMD8<Int16>.self), k[2])
                p += 48
                k += 3
                j &+= 3
            }
            if j < vectors {
                a0 &+= SIMDOps.multiplyAddPairs(p.load(as: SIMD8<Int16>.self), k[0])
                if j &+ 1 < vectors {
                    a1 &+= SIMDOps.multiplyAddPairs(p.load(fromByteOffset: 16, as: SIMD8<Int16>.self), k[1])
                }
            }
            // Lanes: a0 = [0 1 2 0], a1 = [1 2 0 1], a2 = [2 0 1 2] (channel of each lane).
            let sum = a0 &+ SIMD4(a0[3], a1[0], a1[1], 0) &+ SIMD4(a1[2], a1[3], a2[0], 0)
                &+ SIMD4(a2[1], a2[2], a2[3], 0)
            let v = SIMDOps.roundToByte(sum)
            let o = out + i &* 3
            o[0] = UInt8(truncatingIfNeeded: v[0])
            o[1] = UInt8(truncatingIfNeeded: v[1])
            o[2] = UInt8(truncatingIfNeeded: v[2])
        }
    }

    /// Four elements per pixel: each vector is one pixel, the accumulator lanes are the channels.
    @inline(__always)
    static func row4(_ paired: UnsafeRawPointer, _ vectors: Int, _ weights: UnsafePointer<SIMD8<Int16>>,
                     _ starts: UnsafePointer<Int>, _ outCount: Int, _ out: UnsafeMutablePointer<UInt8>,
                     red: Int, blue: Int) {
        for i in 0..<outCount {
            var p = paired + starts[i] &* 16
            var k = weights + i &* vectors
            var a0 = SIMD4<Int32>(), a1 = SIMD4<Int32>()
            var j = 0
            while j &+ 2 <= vectors {
                a0 &+= SIMDOps.multiplyAddPairs(p.load(as: SIMD8<Int16>.self), k[0])
                a1 &+= SIMDOps.multiplyAddPairs(p.load(fromByteOffset: 16, as: SIMD8<Int16>.self), k[1])
                p += 32
                k += 2
                j &+= 2
            }
            if j < vectors {
                a0 &+= SIMDOps.multiplyAddPairs(p.load(as: SIMD8<Int16>.self), k[0])
            }
            let v = SIMDOps.roundToByte(a0 &+ a1)
            let o = out + i &* 3
            o[0] = UInt8(truncatingIfNeeded: v[red])
            o[1] = UInt8(truncatingIfNeeded: v[1])
            o[2] = UInt8(truncatingIfNeeded: v[blue])
        }
    }

    /// One element per pixel (gray): all lanes are the same channel; the gray value is replicated.
    @inline(__always)
    static func row1(_ paired: UnsafeRawPointer, _ vectors: Int, _ weights: UnsafePointer<SIMD8<Int16>>,
                     _ starts: UnsafePointer<Int>, _ outCount: Int, _ out: UnsafeMutablePointer<UInt8>) {
        for i in 0..<outCount {
            var p = paired + starts[i] &* 16
            var k = weights + i &* vectors
            var a0 = SIMD4<Int32>()
            for _ in 0..<vectors {
                a0 &+= SIMDOps.multiplyAddPairs(p.load(as: SIMD8<Int16>.self), k[0])
                p += 16
                k += 1
            }
            let g = SIMDOps.roundToByte(a0.wrappedSum())
            let o = out + i &* 3
            o[0] = g
            o[1] = g
            o[2] = g
        }
    }
}
