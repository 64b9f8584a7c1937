/// Conversions of camera frames and other pixel layouts into tightly packed RGB8.
///
/// The YUV conversions take the planes as the caller has them, each with its own row stride, check
/// every plane against its stride and the image size (throwing ``PixelBufferError`` rather than
/// reading out of bounds), and use BT.601 coefficients in fixed point (see ``YUVRange``). Chroma is
/// 4:2:0: planes of `ceil(width / 2)` × `ceil(height / 2)` samples, each sample shared by a 2×2 block
/// of pixels; odd sizes are allowed.
package enum PixelConversion {
    /// Converts an NV12 frame (a Y plane and one plane of interleaved Cb, Cr pairs) to RGB8.
    /// - Parameters:
    ///   - y: the luma plane, `yBytesPerRow * (height - 1) + width` bytes at least.
    ///   - cbcr: the chroma plane, `cbcrBytesPerRow * (ceil(height/2) - 1) + 2 * ceil(width/2)` bytes at least.
    package static func nv12ToRGB(
        y: UnsafeRawBufferPointer, yBytesPerRow: Int,
        cbcr: UnsafeRawBufferPointer, cbcrBytesPerRow: Int,
        width: Int, height: Int, range: YUVRange
    ) throws(PixelBufferError) -> ImageBuffer {
        try semiPlanar(
            y: y, yBytesPerRow: yBytesPerRow, chroma: cbcr, chromaBytesPerRow: cbcrBytesPerRow,
            planeName: "CbCr", cbFirst: true, width: width, height: height, range: range, instructions: .best)
    }

    /// Converts an NV21 frame (a Y plane and one plane of interleaved Cr, Cb pairs — Android's camera
    /// default) to RGB8; otherwise the same as ``nv12ToRGB(y:yBytesPerRow:cbcr:cbcrBytesPerRow:width:height:range:)``.
    package static func nv21ToRGB(
        y: UnsafeRawBufferPointer, yBytesPerRow: Int,
        crcb: UnsafeRawBufferPointer, crcbBytesPerRow: Int,
        width: Int, height: Int, range: YUVRange
    ) throws(PixelBufferError) -> ImageBuffer {
        try semiPlanar(
            y: y, yBytesPerRow: yBytesPerRow, chroma: crcb, chromaBytesPerRow: crcbBytesPerRow,
            planeName: "CrCb", cbFirst: false, width: width, height: height, range: range, instructions: .best)
    }

    /// Converts an I420 frame (Y, U = Cb and V = Cr planes) to RGB8.
    /// - Parameters:
    ///   - y: the luma plane, `yBytesPerRow * (height - 1) + width` bytes at least.
    ///   - u: the Cb plane, `uBytesPerRow * (ceil(height/2) - 1) + ceil(width/2)` bytes at least.
    ///   - v: the Cr plane, likewise with `vBytesPerRow`.
    package static func i420ToRGB(
        y: UnsafeRawBufferPointer, yBytesPerRow: Int,
        u: UnsafeRawBufferPointer, uBytesPerRow: Int,
        v: UnsafeRawBufferPointer, vBytesPerRow: Int,
        width: Int, height: Int, range: YUVRange
    ) throws(PixelBufferError) -> ImageBuffer {
        try i420ToRGB(
            y: y, yBytesPerRow: yBytesPerRow, u: u, uBytesPerRow: uBytesPerRow, v: v, vBytesPerRow: vBytesPerRow,
            width: width, height: height, range: range, instructions: .best)
    }

    /// ``i420ToRGB(y:yBytesPerRow:u:uBytesPerRow:v:vBytesPerRow:width:height:range:)`` with the row kernel of
    /// `instructions` (tests force the SSE2 fallback with it).
    static func i420ToRGB(
        y: UnsafeRawBufferPointer, yBytesPerRow: Int,
        u: UnsafeRawBufferPointer, uBytesPerRow: Int,
        v: UnsafeRawBufferPointer, vBytesPerRow: Int,
        width: Int, height: Int, range: YUVRange, instructions: InstructionSet
    ) throws(PixelBufferError) -> ImageBuffer {
        guard width > 0, height > 0 else { throw .invalidSize(width: width, height: height) }
        let cw = (width + 1) / 2, ch = (height + 1) / 2
        try PixelBufferError.check(plane: "Y", count: y.count, bytesPerRow: yBytesPerRow, rowBytes: width, rows: height)
        try PixelBufferError.check(plane: "U", count: u.count, bytesPerRow: uBytesPerRow, rowBytes: cw, rows: ch)
        try PixelBufferError.check(plane: "V", count: v.count, bytesPerRow: vBytesPerRow, rowBytes: cw, rows: ch)
        let yBase = y.baseAddress!.assumingMemoryBound(to: UInt8.self)
        let uBase = u.baseAddress!.assumingMemoryBound(to: UInt8.self)
        let vBase = v.baseAddress!.assumingMemoryBound(to: UInt8.self)
        return convert(width: width, height: height, range: range, cbFirst: true, instructions: instructions) { row in
            (
                yBase + row * yBytesPerRow,
                .planar(cb: uBase + (row / 2) * uBytesPerRow, cr: vBase + (row / 2) * vBytesPerRow)
            )
        }
    }

    /// Converts an rgba8, bgra8 or gray8 image (any row stride) to tightly packed RGB8: alpha is
    /// dropped, gray is replicated. An rgb8 image is returned repacked without padding.
    package static func toRGB(_ image: ImageBuffer) -> ImageBuffer {
        var pixels = [UInt8](repeating: 0, count: image.width * image.height * 3)
        image.pixels.withUnsafeBufferPointer { source in
            pixels.withUnsafeMutableBufferPointer { out in
                for row in 0..<image.height {
                    RowConversion.toRGB(
                        source.baseAddress! + row * image.bytesPerRow, format: image.format,
                        width: image.width, into: out.baseAddress! + row * image.width * 3)
                }
            }
        }
        return ImageBuffer(width: image.width, height: image.height, format: .rgb8, pixels: pixels)
    }

    /// NV12 (`cbFirst`) or NV21 with the row kernel of `instructions` (tests force the SSE2 fallback with it).
    static func semiPlanar(
        y: UnsafeRawBufferPointer, yBytesPerRow: Int, chroma: UnsafeRawBufferPointer,
        chromaBytesPerRow: Int, planeName: String, cbFirst: Bool,
        width: Int, height: Int, range: YUVRange, instructions: InstructionSet
    ) throws(PixelBufferError) -> ImageBuffer {
        guard width > 0, height > 0 else { throw .invalidSize(width: width, height: height) }
        let cw = (width + 1) / 2, ch = (height + 1) / 2
        try PixelBufferError.check(plane: "Y", count: y.count, bytesPerRow: yBytesPerRow, rowBytes: width, rows: height)
        try PixelBufferError.check(
            plane: planeName, count: chroma.count, bytesPerRow: chromaBytesPerRow,
            rowBytes: 2 * cw, rows: ch)
        let yBase = y.baseAddress!.assumingMemoryBound(to: UInt8.self)
        let cBase = chroma.baseAddress!.assumingMemoryBound(to: UInt8.self)
        return convert(width: width, height: height, range: range, cbFirst: cbFirst, instructions: instructions) {
            row in
            (yBase + row * yBytesPerRow, .interleaved(cBase + (row / 2) * chromaBytesPerRow, cbFirst: cbFirst))
        }
    }

    /// Runs the row kernel over every row; `rowPlanes` gives the luma row and chroma of row `r`.
    /// (The output is written without being zeroed first: every byte of it is a pixel.)
    static func convert(
        width: Int, height: Int, range: YUVRange, cbFirst: Bool, instructions: InstructionSet,
        rowPlanes: (Int) -> (UnsafePointer<UInt8>, YUVRowKernel.Chroma)
    ) -> ImageBuffer {
        let k = YUVCoefficients(range)
        let vectors = YUVRowKernel.Vectors(k, cbFirst: cbFirst)
        let avx2 = instructions.available == .avx2
        let count = width * height * 3
        let pixels = [UInt8](unsafeUninitializedCapacity: count) { out, initialized in
            for row in 0..<height {
                let (luma, chroma) = rowPlanes(row)
                YUVRowKernel.convertRow(
                    y: luma, chroma: chroma, width: width, k: k, vectors: vectors,
                    out: out.baseAddress! + row * width * 3, avx2: avx2)
            }
            initialized = count
        }
        return ImageBuffer(width: width, height: height, format: .rgb8, pixels: pixels)
    }
}
