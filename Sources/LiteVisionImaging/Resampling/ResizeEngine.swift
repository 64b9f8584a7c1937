import Dispatch

/// Carries out one planned resize over borrowed memory, following Pillow's pass structure.
///
/// Horizontal first (the usual order): the horizontal pass runs only over the source rows the
/// vertical pass reads and its rows, rounded to bytes as Pillow rounds them, go into a small ring
/// of `plan.vertical.maxCount` rows per worker in paired form, so the working set stays in cache and
/// the vertical pass needs no shuffling. Vertical first (Pillow 13's order for tall reductions):
/// each output row is the vertical pass over full source rows, then the horizontal pass of it.
///
/// Output rows are split into contiguous bands, one per worker; each worker computes the rows its
/// band needs (a band boundary costs at most one window of horizontal rows twice).
///
/// `@unchecked Sendable`: the engine only holds pointers to memory that outlives the synchronous
/// ``run(threads:)`` call; the source and the plan are only read, and every worker writes a disjoint
/// band of destination rows and its own scratch buffers.
///
/// The kernels are the SSE2 Swift ones or their AVX2 forms (`instructions`, already checked against the
/// processor); both give the same bytes.
struct ResizeEngine: @unchecked Sendable {
    let source: UnsafePointer<UInt8>
    let sourceBytesPerRow: Int
    let format: PixelFormat
    let destination: UnsafeMutablePointer<UInt8>
    let plan: ResizePlan
    let instructions: InstructionSet

    /// Estimated cost (in `pmaddwd`-sized operations, very roughly 0.1 ns each here) above which
    /// the rows are split across threads.
    static let threadingThreshold = 1_500_000

    /// Runs the resize with at most `threads` workers.
    func run(threads: Int) {
        let table: HorizontalTable? = plan.needsHorizontal ? plan.horizontalTable(for: format) : nil
        let workers = max(1, min(threads, plan.height, estimatedCost(table) / ResizeEngine.threadingThreshold + 1))
        let emptyWeights = [SIMD8<Int16>](), emptyPlain = [SIMD4<Int32>](), emptyStarts = [Int]()
        (table?.weights ?? emptyWeights).withUnsafeBufferPointer { hWeights in
            (table?.plainWeights ?? emptyPlain).withUnsafeBufferPointer { hPlain in
                (table?.startVector ?? emptyStarts).withUnsafeBufferPointer { hStarts in
                    plan.vertical.weights.withUnsafeBufferPointer { vWeights in
                        var row: HorizontalKernel.Row? = nil
                        if let table {
                            row = HorizontalKernel.Row(
                                table: table, weights: hWeights.baseAddress!, plainWeights: hPlain.baseAddress!,
                                starts: hStarts.baseAddress!, outCount: plan.width,
                                format: format, clip: plan.horizontal.needsClip, avx2: instructions == .avx2)
                        }
                        let context = Context(row: row, vWeights: vWeights.baseAddress!, avx2: instructions == .avx2)
                        if workers == 1 {
                            runBand(0, plan.height, context)
                        } else {
                            DispatchQueue.concurrentPerform(iterations: workers) { w in
                                runBand(plan.height * w / workers, plan.height * (w + 1) / workers, context)
                            }
                        }
                    }
                }
            }
        }
    }

    /// Pointers into the plan's arrays, valid (and only read) for the duration of ``run(threads:)``.
    struct Context: @unchecked Sendable {
        let row: HorizontalKernel.Row?
        let vWeights: UnsafePointer<Int32>
        /// Whether the AVX2 kernels run.
        let avx2: Bool
    }

    /// Rough operation count, to decide whether threads pay off.
    func estimatedCost(_ table: HorizontalTable?) -> Int {
        let rowBytes = plan.width * 3
        var cost = 0
        let rows = plan.verticalFirst ? plan.height : plan.vertical.endUsed - plan.vertical.firstUsed
        if let table {
            cost += rows * (plan.width * (table.vectorsPerPixel + 6) + plan.sourceWidth * table.elementsPerPixel / 4)
        } else {
            cost += rows * rowBytes / 8
        }
        if plan.needsVertical {
            let width = plan.verticalFirst ? plan.sourceWidth * format.bytesPerPixel : rowBytes
            cost += plan.height * (width / 4 + 1) * plan.vertical.maxCount * 2
        }
        return cost
    }

    /// Produces output rows `start ..< end`.
    func runBand(_ start: Int, _ end: Int, _ context: Context) {
        guard start < end else { return }
        let rowBytes = plan.width * 3
        let sourceElements = plan.sourceWidth * format.bytesPerPixel
        let scratch = Scratch(plan: plan, format: format, horizontal: context.row != nil)
        defer { scratch.deallocate() }

        guard plan.needsVertical else {
            for y in start..<end {
                let row = source + y * sourceBytesPerRow
                if let hRow = context.row {
                    HorizontalKernel.pairRow(row, count: sourceElements, into: scratch.paired, avx2: hRow.avx2)
                    HorizontalKernel.resample(
                        scratch.paired, hRow, pairedOutput: false, out: destination + y * rowBytes)
                } else {
                    RowConversion.toRGB(row, format: format, width: plan.width, into: destination + y * rowBytes)
                }
            }
            return
        }
        if let hRow = context.row, plan.verticalFirst {
            runVerticalFirst(start, end, context, hRow, scratch)
        } else if context.row == nil && format == .rgb8 {
            runVerticalOnRGB(start, end, context, scratch)
        } else {
            runRing(start, end, context, scratch)
        }
    }

    /// Horizontal first, through the paired ring.
    func runRing(_ start: Int, _ end: Int, _ context: Context, _ scratch: Scratch) {
        let vertical = plan.vertical
        var next = Int.min  // the next source row the ring does not hold yet
        // The ring has three rows more than any window, so the rows after a window can be made early
        // (with the window's last rows, up to four at a time) without evicting a row the window still needs.
        let bandEnd = vertical.first[end - 1] + vertical.count[end - 1]
        for yy in start..<end {
            let first = vertical.first[yy], taps = vertical.count[yy]
            if next < first { next = first }
            while next < first + taps {
                next += ringRows(from: next, bandEnd: bandEnd, context, scratch)
            }
            ringOutputRow(yy, first: first, taps: taps, context, scratch)
        }
    }

    /// Makes the paired horizontal pass of source row `next` into its ring slot, and of the rows after it when
    /// they are in the band (`bandEnd`: the first row past it) and can be made with it: four or two rows per
    /// weight load. Returns the number of rows made.
    @inline(__always)
    func ringRows(from next: Int, bandEnd: Int, _ context: Context, _ scratch: Scratch) -> Int {
        let row = source + next * sourceBytesPerRow
        let slot = scratch.ringRow(next)
        let sourceElements = plan.sourceWidth * format.bytesPerPixel
        if let hRow = context.row, next + 3 < bandEnd,
            HorizontalKernel.canReadBytes(hRow, readable: readable(row: next + 3))
        {
            // AVX2 on RGB8, four rows per weight load (the ring has room for the three rows past a
            // window).
            for r in 0..<4 { scratch.ringOutputs[r] = scratch.ringRow(next + r) }
            HorizontalKernel.resampleFourBytes(row, stride: sourceBytesPerRow, hRow, outs: scratch.ringOutputs)
            return 4
        }
        if let hRow = context.row, next + 1 < bandEnd,
            HorizontalKernel.canReadBytes(hRow, readable: readable(row: next + 1))
        {
            // AVX2 on RGB8: straight from the source bytes, no paired rows.
            HorizontalKernel.resampleTwoBytes(
                row, row + sourceBytesPerRow, hRow, outA: slot, outB: scratch.ringRow(next + 1))
            return 2
        }
        if let hRow = context.row, next + 1 < bandEnd {
            // Two rows at a time share the weight loads.
            HorizontalKernel.pairRow(row, count: sourceElements, into: scratch.paired, avx2: hRow.avx2)
            HorizontalKernel.pairRow(
                row + sourceBytesPerRow, count: sourceElements, into: scratch.paired2, avx2: hRow.avx2)
            HorizontalKernel.resampleTwo(
                scratch.paired, scratch.paired2, hRow, pairedOutput: true,
                outA: slot, outB: scratch.ringRow(next + 1))
            return 2
        }
        if let hRow = context.row {
            HorizontalKernel.pairRow(row, count: sourceElements, into: scratch.paired, avx2: hRow.avx2)
            HorizontalKernel.resample(scratch.paired, hRow, pairedOutput: true, out: slot)
        } else {
            RowConversion.toRGB(row, format: format, width: plan.width, into: scratch.bytes)
            HorizontalKernel.pairRow(scratch.bytes, count: plan.width * 3, into: slot, avx2: context.avx2)
        }
        return 1
    }

    /// The vertical pass of output row `yy` over the `taps` ring rows from source row `first`.
    @inline(__always)
    func ringOutputRow(_ yy: Int, first: Int, taps: Int, _ context: Context, _ scratch: Scratch) {
        let vertical = plan.vertical
        let rowBytes = plan.width * 3
        for t in 0..<taps { scratch.pairedRows[t] = UnsafeRawPointer(scratch.ringRow(first + t)) }
        let weights = context.vWeights + yy * vertical.stride
        VerticalPairedKernel.prepareWeights(weights, taps: taps, into: scratch.weightVectors)
        let out = destination + yy * rowBytes
        if vertical.needsClip {
            VerticalPairedKernel.resampleRow(
                rows: scratch.pairedRows, pairs: scratch.weightVectors, weights: weights,
                taps: taps, count: rowBytes, out: out, ClippedRounding.self, avx2: context.avx2)
        } else {
            VerticalPairedKernel.resampleRow(
                rows: scratch.pairedRows, pairs: scratch.weightVectors, weights: weights,
                taps: taps, count: rowBytes, out: out, UnclippedRounding.self, avx2: context.avx2)
        }
    }

    /// How many bytes can be read from the start of source row `y` (to the end of the last row).
    @inline(__always)
    func readable(row y: Int) -> Int {
        (plan.sourceHeight &- 1 &- y) &* sourceBytesPerRow &+ plan.sourceWidth &* format.bytesPerPixel
    }

    /// Vertical pass only, straight over RGB8 source rows.
    func runVerticalOnRGB(_ start: Int, _ end: Int, _ context: Context, _ scratch: Scratch) {
        let rowBytes = plan.width * 3
        for yy in start..<end {
            verticalRow(yy, count: rowBytes, out: destination + yy * rowBytes, context, scratch)
        }
    }

    /// Output row `yy` of the vertical pass over the first `count` bytes of the source rows in its window.
    @inline(__always)
    func verticalRow(
        _ yy: Int, count: Int, out: UnsafeMutablePointer<UInt8>, _ context: Context, _ scratch: Scratch
    ) {
        let vertical = plan.vertical
        let first = vertical.first[yy], taps = vertical.count[yy]
        for t in 0..<taps { scratch.byteRows[t] = source + (first + t) * sourceBytesPerRow }
        let weights = context.vWeights + yy * vertical.stride
        VerticalKernel.prepareWeights(weights, taps: taps, into: scratch.weightVectors)
        VerticalKernel.resampleRow(
            rows: scratch.byteRows, weights: weights, pairs: scratch.weightVectors,
            taps: taps, count: count, out: out, avx2: context.avx2)
    }

    /// Output rows the vertical-first pass makes before their horizontal passes, which run four rows per
    /// weight load on AVX2.
    static let verticalFirstGroup = 8

    /// Pillow's other order: the vertical pass over full source rows (in the source format), then the
    /// horizontal pass of each such row, in groups of ``verticalFirstGroup`` output rows.
    func runVerticalFirst(
        _ start: Int, _ end: Int, _ context: Context, _ hRow: HorizontalKernel.Row,
        _ scratch: Scratch
    ) {
        let sourceElements = plan.sourceWidth * format.bytesPerPixel
        var g0 = start
        while g0 < end {
            let g1 = min(g0 + ResizeEngine.verticalFirstGroup, end)
            for yy in g0..<g1 {
                verticalRow(
                    yy, count: sourceElements, out: scratch.groupRows + (yy - g0) * sourceElements, context, scratch)
            }
            var yy = g0
            while yy < g1 {
                let row = scratch.groupRows + (yy - g0) * sourceElements
                let out = destination + yy * plan.width * 3
                if yy + 3 < g1,
                    HorizontalKernel.canReadBytes(hRow, readable: scratch.groupBytes - (yy - g0) * sourceElements)
                {
                    // AVX2 on RGB8: four rows per weight load, straight from their bytes.
                    for r in 0..<4 { scratch.ringOutputs[r] = UnsafeMutableRawPointer(out + r * plan.width * 3) }
                    HorizontalKernel.resampleFourBytes(
                        row, stride: sourceElements, hRow, outs: scratch.ringOutputs, pairedOutput: false)
                    yy += 4
                    continue
                }
                HorizontalKernel.pairRow(row, count: sourceElements, into: scratch.paired, avx2: context.avx2)
                HorizontalKernel.resample(scratch.paired, hRow, pairedOutput: false, out: out)
                yy += 1
            }
            g0 = g1
        }
    }
}

/// One worker's buffers: a paired source row, the ring of paired horizontal rows, a byte row, row
/// pointers and weight vectors. About 100 KB + 3 KB per ring row for a 4096-wide source to 224.
struct Scratch {
    let paired: UnsafeMutableRawPointer
    let paired2: UnsafeMutableRawPointer
    let ring: UnsafeMutableRawPointer
    let ringRows: Int
    let ringStride: Int
    let bytes: UnsafeMutablePointer<UInt8>
    let pairedRows: UnsafeMutablePointer<UnsafeRawPointer>
    let byteRows: UnsafeMutablePointer<UnsafePointer<UInt8>>
    /// The vertical pass's rows of one group of output rows (vertical first only), `groupBytes` long.
    let groupRows: UnsafeMutablePointer<UInt8>
    let groupBytes: Int
    let weightVectors: UnsafeMutablePointer<SIMD8<Int16>>
    /// The four ring rows a four-row horizontal call writes.
    let ringOutputs: UnsafeMutablePointer<UnsafeMutableRawPointer>

    init(plan: ResizePlan, format: PixelFormat, horizontal: Bool) {
        let sourceElements = plan.sourceWidth * format.bytesPerPixel
        let pairedVectors = horizontal ? plan.horizontalTable(for: format).pairedRowVectors : 1
        let pairedBytes = max(pairedVectors * 16, (sourceElements + 4) * 4)
        paired = UnsafeMutableRawPointer.allocate(byteCount: pairedBytes, alignment: 64)
        paired2 = UnsafeMutableRawPointer.allocate(byteCount: pairedBytes, alignment: 64)
        // The part past the row's elements is read with zero weights: keep it initialised.
        paired.initializeMemory(as: UInt8.self, repeating: 0, count: pairedBytes)
        paired2.initializeMemory(as: UInt8.self, repeating: 0, count: pairedBytes)
        let taps = max(plan.vertical.maxCount, 1)
        ringRows = plan.needsVertical ? taps + 3 : 0
        ringStride = ((plan.width * 3 + 4) * 4 + 63) / 64 * 64
        ring = UnsafeMutableRawPointer.allocate(byteCount: max(ringRows * ringStride, 64), alignment: 64)
        bytes = UnsafeMutablePointer<UInt8>.allocate(capacity: max(sourceElements, plan.width * 3))
        pairedRows = UnsafeMutablePointer<UnsafeRawPointer>.allocate(capacity: taps)
        byteRows = UnsafeMutablePointer<UnsafePointer<UInt8>>.allocate(capacity: taps)
        // Room past the last row for the AVX2 horizontal pass, which reads whole vectors from its bytes.
        groupBytes =
            plan.verticalFirst ? ResizeEngine.verticalFirstGroup * sourceElements + pairedVectors * 4 + 64 : 1
        groupRows = UnsafeMutablePointer<UInt8>.allocate(capacity: groupBytes)
        groupRows.initialize(repeating: 0, count: groupBytes)
        weightVectors = UnsafeMutablePointer<SIMD8<Int16>>.allocate(capacity: taps + 1)
        ringOutputs = UnsafeMutablePointer<UnsafeMutableRawPointer>.allocate(capacity: 4)
        ringOutputs.initialize(repeating: ring, count: 4)
    }

    /// The ring slot of source row `y`.
    @inline(__always)
    func ringRow(_ y: Int) -> UnsafeMutableRawPointer { ring + (y % ringRows) * ringStride }

    func deallocate() {
        paired.deallocate()
        paired2.deallocate()
        ring.deallocate()
        bytes.deallocate()
        pairedRows.deallocate()
        byteRows.deallocate()
        groupRows.deallocate()
        weightVectors.deallocate()
        ringOutputs.deallocate()
    }
}
