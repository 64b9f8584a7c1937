/// The horizontal weights of a ``ResizePlan`` laid out for the SIMD kernel of one pixel layout.
///
/// The kernel works on a *paired row*: every 8-bit element `p` of a source row is widened to the
/// 32-bit lane `p | p << 23`, which read as two 16-bit halves is the pair `(p, p << 7)`. A weight
/// `K` (22 fractional bits, at most 2^22) is stored as the pair `(K - 128 * Kh, Kh)` with
/// `Kh = min(K >> 7, 32767)`, so one SSE2 `pmaddwd` of a paired vector and a weight vector gives four
/// exact 32-bit products `p * K` — the same integers Pillow's scalar loop adds up, hence bit-exact.
///
/// Each output pixel reads `vectorsPerPixel` consecutive vectors (four elements each) of the paired
/// row, starting at `startVector[i]`; weights outside its window are zero. With three elements per
/// pixel the start is a multiple of three vectors, so vector `j` of every window has the channel
/// pattern `(4j + lane) % 3` and three accumulators suffice.
struct HorizontalTable: Sendable {
    /// Interleaved elements per source pixel: 1 (gray), 3 (RGB) or 4 (RGBA / BGRA).
    let elementsPerPixel: Int
    /// Vectors of four elements each output pixel reads.
    let vectorsPerPixel: Int
    /// First vector of each output pixel's window in the paired row.
    let startVector: [Int]
    /// `vectorsPerPixel` weight vectors per output pixel.
    let weights: [SIMD8<Int16>]
    /// The same weights as plain 32-bit integers `K` (one per lane, same layout), for the AVX2 kernel that
    /// multiplies source bytes directly (`vpmulld`) instead of reading a paired row.
    let plainWeights: [SIMD4<Int32>]
    /// Vectors the paired-row buffer must hold (the part past the row's elements stays zero).
    let pairedRowVectors: Int

    /// Lays out `axis` for source pixels of `elementsPerPixel` interleaved bytes.
    /// - Parameter ignoredLane: for four elements per pixel, the element (alpha) whose weight is zero.
    init(axis: PillowAxis, elementsPerPixel e: Int, ignoredElement: Int? = nil) {
        precondition(e == 1 || e == 3 || e == 4, "HorizontalTable: unsupported layout")
        elementsPerPixel = e
        let out = axis.outSize
        var starts = [Int](repeating: 0, count: out)
        var vectors = 1
        for i in 0..<out {
            let lo = axis.first[i], n = axis.count[i]
            let start: Int
            switch e {
            case 3: start = (lo / 4) * 3
            case 4: start = lo
            default: start = lo / 4
            }
            starts[i] = start
            let endElement = (lo + n) * e
            vectors = max(vectors, (endElement - start * 4 + 3) / 4)
        }
        vectorsPerPixel = vectors
        startVector = starts
        pairedRowVectors = max((axis.inSize * e + 3) / 4, (starts.last ?? 0) + vectors)

        var table = [SIMD8<Int16>](repeating: SIMD8<Int16>(), count: out * vectors)
        var plain = [SIMD4<Int32>](repeating: SIMD4<Int32>(), count: out * vectors)
        table.withUnsafeMutableBytes { bytes in
            plain.withUnsafeMutableBytes { plainBytes in
                let raw = bytes.baseAddress!, plainRaw = plainBytes.baseAddress!
                axis.weights.withUnsafeBufferPointer { k in
                    for i in 0..<out {
                        let lo = axis.first[i], n = axis.count[i]
                        // Lane of element `e` of the source row: (e - 4 * start) within this pixel's vectors.
                        let base = i * vectors * 4 - starts[i] * 4
                        for t in 0..<n {
                            let w = Int(k[i * axis.stride + t])
                            precondition(w >= 0 && w <= 32767 * 128 + 32767, "weight out of range")
                            let high = min(w >> 7, 32767)
                            let pair = UInt32(UInt16(w - high * 128)) | UInt32(UInt16(high)) << 16
                            for c in 0..<e where c != ignoredElement {
                                raw.storeBytes(of: pair, toByteOffset: (base + (lo + t) * e + c) * 4, as: UInt32.self)
                                plainRaw.storeBytes(
                                    of: Int32(w), toByteOffset: (base + (lo + t) * e + c) * 4, as: Int32.self)
                            }
                        }
                    }
                }
            }
        }
        weights = table
        plainWeights = plain
    }
}
