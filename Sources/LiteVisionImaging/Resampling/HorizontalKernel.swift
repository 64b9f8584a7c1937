import CImagingKernels

/// The horizontal pass: one source row in, one row of `outCount` RGB pixels out (Pillow's
/// `ImagingResampleHorizontal_8bpc`, bit-exact).
///
/// The row is first widened into a *paired row* (see ``HorizontalTable``), once, so that the two
/// windows every source byte belongs to read it ready for `pmaddwd`. With ``Row/avx2`` the AVX2 forms of
/// the same loops (`CImagingKernels`) run instead; they compute the same integers.
enum HorizontalKernel {
    /// ``pairRow(_:count:into:)`` with the AVX2 kernel when `avx2` is true.
    @inline(__always)
    static func pairRow(
        _ source: UnsafePointer<UInt8>, count: Int, into paired: UnsafeMutableRawPointer, avx2: Bool
    ) {
        if avx2 {
            litevision_avx2_pair_row(source, count, paired)
        } else {
            pairRow(source, count: count, into: paired)
        }
    }

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

    /// Everything a row resample needs besides the rows themselves.
    struct Row {
        let table: HorizontalTable
        let weights: UnsafePointer<SIMD8<Int16>>
        /// ``HorizontalTable/plainWeights``, for ``resampleTwoBytes(_:_:_:outA:outB:)``.
        let plainWeights: UnsafePointer<SIMD4<Int32>>
        let starts: UnsafePointer<Int>
        let outCount: Int
        let format: PixelFormat
        let clip: Bool
        /// Whether the AVX2 kernels run (the processor has been checked to support them).
        let avx2: Bool
    }

    /// Resamples one paired row into `row.outCount` pixels at `out`, as bytes (`paired: false`) or
    /// in paired form for the vertical pass (`paired: true`).
    @inline(__always)
    static func resample(_ input: UnsafeRawPointer, _ row: Row, pairedOutput: Bool, out: UnsafeMutableRawPointer) {
        if row.avx2 {
            resampleAVX2(input, row, pairedOutput: pairedOutput, out: out)
            return
        }
        if row.clip {
            pairedOutput
                ? dispatch(input, row, out, ClippedRounding.self, PairedSink.self)
                : dispatch(input, row, out, ClippedRounding.self, ByteSink.self)
        } else {
            pairedOutput
                ? dispatch(input, row, out, UnclippedRounding.self, PairedSink.self)
                : dispatch(input, row, out, UnclippedRounding.self, ByteSink.self)
        }
    }

    /// ``resample(_:_:pairedOutput:out:)`` with the AVX2 kernels.
    static func resampleAVX2(_ input: UnsafeRawPointer, _ row: Row, pairedOutput: Bool, out: UnsafeMutableRawPointer) {
        let v = row.table.vectorsPerPixel, clip: Int32 = row.clip ? 1 : 0, paired: Int32 = pairedOutput ? 1 : 0
        let weights = UnsafeRawPointer(row.weights)
        switch row.format {
        case .rgb8:
            litevision_avx2_horizontal3(input, v, weights, row.starts, row.outCount, out, clip, paired)
        case .rgba8:
            litevision_avx2_horizontal4(input, v, weights, row.starts, row.outCount, out, clip, paired, 0)
        case .bgra8:
            litevision_avx2_horizontal4(input, v, weights, row.starts, row.outCount, out, clip, paired, 1)
        case .gray8:
            litevision_avx2_horizontal1(input, v, weights, row.starts, row.outCount, out, clip, paired)
        }
    }

    @inline(__always)
    static func dispatch<R: Rounding, S: PixelSink>(
        _ input: UnsafeRawPointer, _ row: Row,
        _ out: UnsafeMutableRawPointer, _: R.Type, _: S.Type
    ) {
        let v = row.table.vectorsPerPixel
        switch row.format {
        case .rgb8: row3(input, v, row.weights, row.starts, row.outCount, out, R.self, S.self)
        case .rgba8: row4(input, v, row.weights, row.starts, row.outCount, out, R.self, S.self, RGBAOrder.self)
        case .bgra8: row4(input, v, row.weights, row.starts, row.outCount, out, R.self, S.self, BGRAOrder.self)
        case .gray8: row1(input, v, row.weights, row.starts, row.outCount, out, R.self, S.self)
        }
    }

    /// Resamples two paired rows at once (sharing the weight loads) into pixels at `outA` and `outB`;
    /// the same as two ``resample(_:_:pairedOutput:out:)`` calls.
    @inline(__always)
    static func resampleTwo(
        _ inputA: UnsafeRawPointer, _ inputB: UnsafeRawPointer, _ row: Row, pairedOutput: Bool,
        outA: UnsafeMutableRawPointer, outB: UnsafeMutableRawPointer
    ) {
        guard row.format == .rgb8 else {
            resample(inputA, row, pairedOutput: pairedOutput, out: outA)
            resample(inputB, row, pairedOutput: pairedOutput, out: outB)
            return
        }
        let v = row.table.vectorsPerPixel
        if row.avx2 {
            litevision_avx2_horizontal3x2(
                inputA, inputB, v, UnsafeRawPointer(row.weights), row.starts, row.outCount, outA, outB,
                row.clip ? 1 : 0, pairedOutput ? 1 : 0)
            return
        }
        switch (row.clip, pairedOutput) {
        case (false, true):
            row3x2(
                inputA, inputB, v, row.weights, row.starts, row.outCount, outA, outB,
                UnclippedRounding.self, PairedSink.self)
        case (false, false):
            row3x2(
                inputA, inputB, v, row.weights, row.starts, row.outCount, outA, outB,
                UnclippedRounding.self, ByteSink.self)
        case (true, true):
            row3x2(
                inputA, inputB, v, row.weights, row.starts, row.outCount, outA, outB,
                ClippedRounding.self, PairedSink.self)
        case (true, false):
            row3x2(
                inputA, inputB, v, row.weights, row.starts, row.outCount, outA, outB,
                ClippedRounding.self, ByteSink.self)
        }
    }

    /// Whether ``resampleTwoBytes(_:_:_:outA:outB:)`` can read a row with `readable` bytes from its start.
    @inline(__always)
    static func canReadBytes(_ row: Row, readable: Int) -> Bool {
        row.avx2 && row.format == .rgb8 && readable >= row.table.pairedRowVectors &* 4
    }

    /// ``resampleTwo(_:_:_:pairedOutput:outA:outB:)`` into the paired ring straight from two RGB8 source rows,
    /// without making paired rows (AVX2, `vpmulld` of the bytes and the plain weights; the same integers).
    /// Only when ``canReadBytes(_:readable:)`` holds for both rows.
    @inline(__always)
    static func resampleTwoBytes(
        _ rowA: UnsafePointer<UInt8>, _ rowB: UnsafePointer<UInt8>, _ row: Row,
        outA: UnsafeMutableRawPointer, outB: UnsafeMutableRawPointer
    ) {
        litevision_avx2_horizontal3x2_bytes(
            rowA, rowB, row.table.vectorsPerPixel, UnsafeRawPointer(row.plainWeights), row.starts, row.outCount,
            outA, outB, row.clip ? 1 : 0, 1)
    }

    /// ``resampleTwoBytes(_:_:_:outA:outB:)`` for the four source rows at `row` and `stride`, `2 * stride`,
    /// `3 * stride` bytes on, into the paired rows `outs[0 ... 3]` (or byte rows when `pairedOutput` is false):
    /// each weight load serves four rows.
    @inline(__always)
    static func resampleFourBytes(
        _ row: UnsafePointer<UInt8>, stride: Int, _ hRow: Row, outs: UnsafePointer<UnsafeMutableRawPointer>,
        pairedOutput: Bool = true
    ) {
        litevision_avx2_horizontal3x4_bytes(
            row, stride, hRow.table.vectorsPerPixel, UnsafeRawPointer(hRow.plainWeights), hRow.starts,
            hRow.outCount, outs, hRow.clip ? 1 : 0, pairedOutput ? 1 : 0)
    }

    /// R, G, B (lanes 0 ... 2) from the three accumulators of a three-element window, whose lanes
    /// hold channels a0 = [0 1 2 0], a1 = [1 2 0 1], a2 = [2 0 1 2]: the sum of the element
    /// windows 0-3, 3-6, 6-9 and 9-12.
    @inline(__always)
    static func channels3(_ a0: SIMD4<Int32>, _ a1: SIMD4<Int32>, _ a2: SIMD4<Int32>) -> SIMD4<Int32> {
        a0 &+ SIMD4(a0[3], a1[0], a1[1], a1[2]) &+ SIMD4(a1[2], a1[3], a2[0], a2[1])
            &+ SIMD4(a2[1], a2[2], a2[3], a2[3])
    }

    /// ``row3(_:_:_:_:_:_:_:_:)`` for two rows at once.
    static func row3x2<R: Rounding, S: PixelSink>(
        _ pairedA: UnsafeRawPointer, _ pairedB: UnsafeRawPointer,
        _ vectors: Int, _ weights: UnsafePointer<SIMD8<Int16>>,
        _ starts: UnsafePointer<Int>, _ outCount: Int,
        _ outA: UnsafeMutableRawPointer, _ outB: UnsafeMutableRawPointer,
        _: R.Type, _: S.Type
    ) {
        let delta = pairedB - pairedA
        for i in 0..<outCount {
            var p = pairedA + starts[i] &* 16
            var k = weights + i &* vectors
            var a0 = SIMD4<Int32>(), a1 = SIMD4<Int32>(), a2 = SIMD4<Int32>()
            var b0 = SIMD4<Int32>(), b1 = SIMD4<Int32>(), b2 = SIMD4<Int32>()
            var j = 0
            while j &+ 3 <= vectors {
                let k0 = k[0], k1 = k[1], k2 = k[2]
                a0 &+= SIMDOps.multiplyAddPairs(p.load(as: SIMD8<Int16>.self), k0)
                b0 &+= SIMDOps.multiplyAddPairs(p.load(fromByteOffset: delta, as: SIMD8<Int16>.self), k0)
                a1 &+= SIMDOps.multiplyAddPairs(p.load(fromByteOffset: 16, as: SIMD8<Int16>.self), k1)
                b1 &+= SIMDOps.multiplyAddPairs(p.load(fromByteOffset: delta &+ 16, as: SIMD8<Int16>.self), k1)
                a2 &+= SIMDOps.multiplyAddPairs(p.load(fromByteOffset: 32, as: SIMD8<Int16>.self), k2)
                b2 &+= SIMDOps.multiplyAddPairs(p.load(fromByteOffset: delta &+ 32, as: SIMD8<Int16>.self), k2)
                p += 48
                k += 3
                j &+= 3
            }
            if j < vectors {
                a0 &+= SIMDOps.multiplyAddPairs(p.load(as: SIMD8<Int16>.self), k[0])
                b0 &+= SIMDOps.multiplyAddPairs(p.load(fromByteOffset: delta, as: SIMD8<Int16>.self), k[0])
                if j &+ 1 < vectors {
                    a1 &+= SIMDOps.multiplyAddPairs(p.load(fromByteOffset: 16, as: SIMD8<Int16>.self), k[1])
                    b1 &+= SIMDOps.multiplyAddPairs(p.load(fromByteOffset: delta &+ 16, as: SIMD8<Int16>.self), k[1])
                }
            }
            let last = i == outCount &- 1
            S.store(R.round(channels3(a0, a1, a2)), pixel: i, last: last, to: outA)
            S.store(R.round(channels3(b0, b1, b2)), pixel: i, last: last, to: outB)
        }
    }

    /// Three elements per pixel: three accumulators whose lanes hold channels `(4j + lane) % 3`.
    static func row3<R: Rounding, S: PixelSink>(
        _ paired: UnsafeRawPointer, _ vectors: Int,
        _ weights: UnsafePointer<SIMD8<Int16>>, _ starts: UnsafePointer<Int>,
        _ outCount: Int, _ out: UnsafeMutableRawPointer,
        _: R.Type, _: S.Type
    ) {
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
            S.store(R.round(channels3(a0, a1, a2)), pixel: i, last: i == outCount &- 1, to: out)
        }
    }

    /// Four elements per pixel: each vector is one pixel, the accumulator lanes are the channels.
    static func row4<R: Rounding, S: PixelSink, O: ChannelOrder>(
        _ paired: UnsafeRawPointer, _ vectors: Int,
        _ weights: UnsafePointer<SIMD8<Int16>>,
        _ starts: UnsafePointer<Int>, _ outCount: Int,
        _ out: UnsafeMutableRawPointer,
        _: R.Type, _: S.Type, _: O.Type
    ) {
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
            S.store(R.round(O.toRGB(a0 &+ a1)), pixel: i, last: i == outCount &- 1, to: out)
        }
    }

    /// One element per pixel (gray): all lanes are the same channel; the gray value is replicated.
    static func row1<R: Rounding, S: PixelSink>(
        _ paired: UnsafeRawPointer, _ vectors: Int,
        _ weights: UnsafePointer<SIMD8<Int16>>, _ starts: UnsafePointer<Int>,
        _ outCount: Int, _ out: UnsafeMutableRawPointer,
        _: R.Type, _: S.Type
    ) {
        for i in 0..<outCount {
            var p = paired + starts[i] &* 16
            var k = weights + i &* vectors
            var a0 = SIMD4<Int32>()
            for _ in 0..<vectors {
                a0 &+= SIMDOps.multiplyAddPairs(p.load(as: SIMD8<Int16>.self), k[0])
                p += 16
                k += 1
            }
            S.store(R.round(SIMD4(repeating: a0.wrappedSum())), pixel: i, last: i == outCount &- 1, to: out)
        }
    }
}
