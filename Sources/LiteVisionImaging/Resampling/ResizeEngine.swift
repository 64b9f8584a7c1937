import Dispatch

/// Carries out one planned resize over borrowed memory, following Pillow's pass structure: the
/// horizontal pass only over the source rows the vertical pass reads, rounded to bytes, then the
/// vertical pass. The horizontal rows live in a small ring of `plan.vertical.maxCount` rows per
/// worker instead of a full intermediate image, so the working set stays in the L1/L2 caches.
///
/// Output rows are split into contiguous bands, one per worker; each worker computes the
/// horizontal rows its band needs (a band boundary costs at most one window of rows twice).
///
/// `@unchecked Sendable`: the engine only holds pointers to memory that outlives the synchronous
/// ``run(threads:)`` call; the source and the plan are only read, and every worker writes a disjoint
/// band of destination rows and its own scratch buffers.
struct ResizeEngine: @unchecked Sendable {
    let source: UnsafePointer<UInt8>
    let sourceBytesPerRow: Int
    let format: PixelFormat
    let destination: UnsafeMutablePointer<UInt8>
    let plan: ResizePlan

    /// Estimated cost below which a second thread costs more than it saves (in `pmaddwd`-sized
    /// operations, roughly 0.15 ns each on this class of machine).
    static let threadingThreshold = 1_500_000

    /// Runs the resize with at most `threads` workers.
    func run(threads: Int) {
        let table: HorizontalTable? = plan.needsHorizontal ? plan.horizontalTable(for: format) : nil
        let workers = max(1, min(threads, plan.height, estimatedCost(table) / ResizeEngine.threadingThreshold + 1))
        let emptyWeights = [SIMD8<Int16>](), emptyStarts = [Int]()
        (table?.weights ?? emptyWeights).withUnsafeBufferPointer { hWeights in
            (table?.startVector ?? emptyStarts).withUnsafeBufferPointer { hStarts in
                plan.vertical.weights.withUnsafeBufferPointer { vWeights in
                    let context = Context(hWeights: hWeights.baseAddress, hStarts: hStarts.baseAddress,
                                          vWeights: vWeights.baseAddress!, table: table)
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

    /// Pointers into the plan's arrays, valid for the duration of ``run(threads:)`` (read only).
    struct Context: @unchecked Sendable {
        let hWeights: UnsafePointer<SIMD8<Int16>>?
        let hStarts: UnsafePointer<Int>?
        let vWeights: UnsafePointer<Int32>
        let table: HorizontalTable?
    }

    /// Rough operation count, to decide whether threads pay off.
    func estimatedCost(_ table: HorizontalTable?) -> Int {
        let rowBytes = plan.width * 3
        var cost = 0
        let rows = plan.vertical.endUsed - plan.vertical.firstUsed
        if let table {
            cost += rows * (plan.width * (table.vectorsPerPixel + 4) + plan.sourceWidth * table.elementsPerPixel / 4)
        } else {
            cost += rows * rowBytes / 8
        }
        if plan.needsVertical {
            cost += plan.height * ((rowBytes + 15) / 16) * ((plan.vertical.maxCount + 1) / 2) * 12
        }
        return cost
    }

    /// Produces output rows `start ..< end`.
    func runBand(_ start: Int, _ end: Int, _ context: Context) {
        guard start < end else { return }
        let rowBytes = plan.width * 3
        let bpp = format.bytesPerPixel

        // The paired-row buffer of the horizontal pass.
        var paired: UnsafeMutableRawPointer? = nil
        if let table = context.table {
            let bytes = table.pairedRowVectors * 16
            let buffer = UnsafeMutableRawPointer.allocate(byteCount: bytes, alignment: 64)
            let used = plan.sourceWidth * table.elementsPerPixel * 4
            (buffer + used).initializeMemory(as: UInt8.self, repeating: 0, count: bytes - used)
            paired = buffer
        }
        defer { paired?.deallocate() }

        /// Horizontal pass (or plain conversion) of source row `y` into `out`.
        func horizontalRow(_ y: Int, _ out: UnsafeMutablePointer<UInt8>) {
            let row = source + y * sourceBytesPerRow
            if let table = context.table, let paired {
                HorizontalKernel.pairRow(row, count: plan.sourceWidth * bpp, into: paired)
                HorizontalKernel.resampleRow(paired: paired, table: table, weights: context.hWeights!,
                                             starts: context.hStarts!, outCount: plan.width,
                                             swapRedBlue: format == .bgra8, out: out)
            } else {
                RowConversion.toRGB(row, format: format, width: plan.width, into: out)
            }
        }

        guard plan.needsVertical else {
            for y in start..<end { horizontalRow(y, destination + y * rowBytes) }
            return
        }
        if plan.verticalFirst, let table = context.table, let paired {
            runVerticalFirst(start, end, context, table: table, paired: paired)
            return
        }

        // Vertical pass over a ring of horizontal rows (or straight over RGB source rows).
        let vertical = plan.vertical
        let direct = context.table == nil && format == .rgb8
        let ringRows = vertical.maxCount
        let ring = UnsafeMutablePointer<UInt8>.allocate(capacity: direct ? 1 : ringRows * rowBytes)
        defer { ring.deallocate() }
        let rowPointers = UnsafeMutablePointer<UnsafePointer<UInt8>>.allocate(capacity: ringRows)
        defer { rowPointers.deallocate() }
        let pairCount = (ringRows + 1) / 2 * 2
        let pairs = UnsafeMutablePointer<SIMD8<Int16>>.allocate(capacity: pairCount)
        defer { pairs.deallocate() }

        var next = 0          // the next source row the ring does not hold yet
        var haveAny = false
        for yy in start..<end {
            let first = vertical.first[yy], taps = vertical.count[yy]
            if direct {
                for t in 0..<taps { rowPointers[t] = UnsafePointer(source + (first + t) * sourceBytesPerRow) }
            } else {
                if !haveAny || next < first { next = first; haveAny = true }
                while next < first + taps {
                    horizontalRow(next, ring + (next % ringRows) * rowBytes)
                    next += 1
                }
                for t in 0..<taps { rowPointers[t] = UnsafePointer(ring + ((first + t) % ringRows) * rowBytes) }
            }
            let weights = context.vWeights + yy * vertical.stride
            VerticalKernel.prepareWeights(weights, taps: taps, into: pairs)
            VerticalKernel.resampleRow(rows: rowPointers, weights: weights, pairs: pairs, taps: taps,
                                       count: rowBytes, out: destination + yy * rowBytes)
        }
    }

    /// Pillow's other order: each output row is the vertical pass over full source rows (in the
    /// source format), then the horizontal pass of that one row.
    func runVerticalFirst(_ start: Int, _ end: Int, _ context: Context, table: HorizontalTable,
                          paired: UnsafeMutableRawPointer) {
        let vertical = plan.vertical
        let rowElements = plan.sourceWidth * format.bytesPerPixel
        let column = UnsafeMutablePointer<UInt8>.allocate(capacity: rowElements)
        defer { column.deallocate() }
        let rowPointers = UnsafeMutablePointer<UnsafePointer<UInt8>>.allocate(capacity: vertical.maxCount)
        defer { rowPointers.deallocate() }
        let pairs = UnsafeMutablePointer<SIMD8<Int16>>.allocate(capacity: (vertical.maxCount + 1) / 2 * 2)
        defer { pairs.deallocate() }
        for yy in start..<end {
            let first = vertical.first[yy], taps = vertical.count[yy]
            for t in 0..<taps { rowPointers[t] = source + (first + t) * sourceBytesPerRow }
            let weights = context.vWeights + yy * vertical.stride
            VerticalKernel.prepareWeights(weights, taps: taps, into: pairs)
            VerticalKernel.resampleRow(rows: rowPointers, weights: weights, pairs: pairs, taps: taps,
                                       count: rowElements, out: column)
            HorizontalKernel.pairRow(column, count: rowElements, into: paired)
            HorizontalKernel.resampleRow(paired: paired, table: table, weights: context.hWeights!,
                                         starts: context.hStarts!, outCount: plan.width,
                                         swapRedBlue: format == .bgra8, out: destination + yy * plan.width * 3)
        }
    }
}
