/// Bilinear sampling without antialiasing at the points of a ``WarpPlan``, in OpenCV's fixed point: weights
/// in 1/32 steps per axis (15 bits for the pair), each result `(sum + 2^14) >> 15`. It reads only the four
/// source pixels of each output pixel, so its cost depends on the output size only (a 12 MP photo costs
/// what a small one does).
package enum WarpSampler {
    /// Samples the stored pixels at `source` (the plan's region: its first row and column; rgb8, rgba8,
    /// bgra8 or gray8, alpha ignored, gray replicated) into `plan.width`×`plan.height` upright RGB8 pixels
    /// at `destination`, rows tightly packed.
    package static func sample(
        _ source: UnsafeRawPointer, format: PixelFormat, plan: WarpPlan, into destination: UnsafeMutableRawPointer
    ) {
        let input = source.assumingMemoryBound(to: UInt8.self)
        let output = destination.assumingMemoryBound(to: UInt8.self)
        switch format {
        case .rgb8, .rgba8: sample(input, red: 0, green: 1, blue: 2, plan: plan, into: output)
        case .bgra8: sample(input, red: 2, green: 1, blue: 0, plan: plan, into: output)
        case .gray8: sample(input, red: 0, green: 0, blue: 0, plan: plan, into: output)
        }
    }

    /// The loop, specialized for one channel layout (the offsets of red, green and blue in a pixel). Wrapping
    /// arithmetic: the largest sum, 255 × 1024, fits an Int32 many times over.
    @inline(__always)
    private static func sample(
        _ input: UnsafePointer<UInt8>, red: Int, green: Int, blue: Int, plan: WarpPlan,
        into output: UnsafeMutablePointer<UInt8>
    ) {
        let width = plan.width, height = plan.height
        plan.columnOffsets.withUnsafeBufferPointer { columns in
            plan.columnFractions.withUnsafeBufferPointer { columnFractions in
                plan.rowOffsets.withUnsafeBufferPointer { rows in
                    plan.rowFractions.withUnsafeBufferPointer { rowFractions in
                        let columns = columns.baseAddress!, columnFractions = columnFractions.baseAddress!
                        var out = output
                        for row in 0..<height {
                            let top = input + Int(rows[row]), bottom = input + Int(rows[height &+ row])
                            let down = rowFractions[row], up = 32 &- down
                            for column in 0..<width {
                                let left = Int(columns[column]), right = Int(columns[width &+ column])
                                let rightWeight = columnFractions[column], leftWeight = 32 &- rightWeight
                                // OpenCV's 15-bit weights are these products × 32: (sum × 32 + 2^14) >> 15.
                                let w00 = leftWeight &* up, w01 = rightWeight &* up
                                let w10 = leftWeight &* down, w11 = rightWeight &* down
                                @inline(__always) func channel(_ offset: Int) -> UInt8 {
                                    let sum =
                                        Int32(top[left &+ offset]) &* w00 &+ Int32(top[right &+ offset]) &* w01
                                        &+ Int32(bottom[left &+ offset]) &* w10 &+ Int32(bottom[right &+ offset]) &* w11
                                    return UInt8(truncatingIfNeeded: (sum &+ 512) &>> 10)
                                }
                                out[0] = channel(red)
                                out[1] = channel(green)
                                out[2] = channel(blue)
                                out += 3
                            }
                        }
                    }
                }
            }
        }
        for exception in plan.exceptions {
            let out = output + Int(exception.pixel) * 3
            let offsets = exception.offsets, right = exception.fractions.x, down = exception.fractions.y
            @inline(__always) func channel(_ offset: Int) -> UInt8 {
                @inline(__always) func tap(_ corner: Int) -> Int32 { Int32(input[Int(offsets[corner]) + offset]) }
                let upper = tap(0) * (32 - right) + tap(1) * right, lower = tap(2) * (32 - right) + tap(3) * right
                return UInt8(truncatingIfNeeded: (upper * (32 - down) + lower * down + 512) >> 10)
            }
            out[0] = channel(red)
            out[1] = channel(green)
            out[2] = channel(blue)
        }
    }
}
