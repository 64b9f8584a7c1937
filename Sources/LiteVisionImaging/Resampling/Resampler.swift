import Dispatch
import FoundationEssentials

/// Image resampling with results bit-identical to Pillow.
///
/// ``resizeBilinearAntialiased(_:into:width:height:plan:threads:)`` reproduces Pillow's
/// `Image.resize(size, Image.BILINEAR)` (antialiased triangle filter, `reducing_gap=None`) byte for
/// byte on RGB input, the preprocessing the reference model outputs were computed with.
package enum Resampler {
    /// The number of worker threads the resize functions use by default: the active processor
    /// count (at most 8). Small resizes always run on the calling thread.
    package static let defaultThreadCount: Int = min(max(ProcessInfo.processInfo.activeProcessorCount, 1), 8)

    /// Resizes `source` (rgb8, rgba8, bgra8 or gray8; any `bytesPerRow`) to `dstWidth`×`dstHeight`
    /// RGB8 (3 bytes per pixel, rows tightly packed), writing straight into `destination`, for
    /// instance a locked model input tensor.
    ///
    /// Four-byte formats are read with their channels mapped to RGB (alpha is ignored); gray is
    /// replicated into the three channels. The result equals Pillow's bilinear resize of the RGB
    /// image exactly.
    /// - Parameters:
    ///   - destination: at least `dstWidth * dstHeight * 3` writable bytes.
    ///   - plan: precomputed weights for these sizes (see ``ResizePlan``); computed when `nil`.
    ///   - threads: the most worker threads to use; the work is split only when it is large enough.
    package static func resizeBilinearAntialiased(
        _ source: ImageBuffer, into destination: UnsafeMutableRawPointer,
        width dstWidth: Int, height dstHeight: Int,
        plan: ResizePlan? = nil, threads: Int = defaultThreadCount
    ) {
        source.pixels.withUnsafeBytes { pixels in
            resizeBilinearAntialiased(
                pixels: pixels, width: source.width, height: source.height,
                bytesPerRow: source.bytesPerRow, format: source.format,
                into: destination, width: dstWidth, height: dstHeight,
                plan: plan, threads: threads)
        }
    }

    /// Resizes borrowed pixel memory to `dstWidth`×`dstHeight` RGB8 at `destination`; the same as
    /// ``resizeBilinearAntialiased(_:into:width:height:plan:threads:)`` without an ``ImageBuffer``.
    /// - Parameters:
    ///   - pixels: the source bytes; must hold `bytesPerRow * (height - 1) + width * bytesPerPixel`.
    ///   - bytesPerRow: distance between source rows, at least `width * format.bytesPerPixel`.
    ///   - destination: at least `dstWidth * dstHeight * 3` writable bytes.
    package static func resizeBilinearAntialiased(
        pixels: UnsafeRawBufferPointer, width: Int, height: Int,
        bytesPerRow: Int, format: PixelFormat,
        into destination: UnsafeMutableRawPointer,
        width dstWidth: Int, height dstHeight: Int,
        plan: ResizePlan? = nil, threads: Int = defaultThreadCount
    ) {
        resizeBilinearAntialiased(
            pixels: pixels, width: width, height: height, bytesPerRow: bytesPerRow, format: format,
            into: destination, width: dstWidth, height: dstHeight, plan: plan, threads: threads,
            instructions: .best)
    }

    /// ``resizeBilinearAntialiased(pixels:width:height:bytesPerRow:format:into:width:height:plan:threads:)``
    /// with the kernels of `instructions` (tests force the SSE2 fallback with it); returns the set that ran,
    /// which is ``InstructionSet/sse2`` when this machine cannot run the one asked for.
    @discardableResult
    static func resizeBilinearAntialiased(
        pixels: UnsafeRawBufferPointer, width: Int, height: Int,
        bytesPerRow: Int, format: PixelFormat,
        into destination: UnsafeMutableRawPointer,
        width dstWidth: Int, height dstHeight: Int,
        plan: ResizePlan?, threads: Int, instructions: InstructionSet
    ) -> InstructionSet {
        precondition(dstWidth > 0 && dstHeight > 0, "Resampler: destination size must be positive")
        precondition(width > 0 && height > 0, "Resampler: source size must be positive")
        precondition(bytesPerRow >= width * format.bytesPerPixel, "Resampler: bytesPerRow too small")
        precondition(
            pixels.count >= bytesPerRow * (height - 1) + width * format.bytesPerPixel,
            "Resampler: source buffer smaller than bytesPerRow * height")
        if let plan {
            precondition(
                plan.sourceWidth == width && plan.sourceHeight == height
                    && plan.width == dstWidth && plan.height == dstHeight,
                "Resampler: the plan was made for other sizes")
        }
        let used = instructions.available
        guard let base = pixels.baseAddress else { return used }
        let resolved =
            plan
            ?? ResizePlan(
                sourceWidth: width, sourceHeight: height,
                width: dstWidth, height: dstHeight, formats: [format])
        let engine = ResizeEngine(
            source: base.assumingMemoryBound(to: UInt8.self), sourceBytesPerRow: bytesPerRow,
            format: format, destination: destination.assumingMemoryBound(to: UInt8.self),
            plan: resolved, instructions: used)
        engine.run(threads: max(1, threads))
        return used
    }

    /// Resizes `source` to a new tightly packed RGB8 image of `dstWidth`×`dstHeight`.
    package static func resizeBilinearAntialiased(
        _ source: ImageBuffer, width dstWidth: Int, height dstHeight: Int,
        plan: ResizePlan? = nil,
        threads: Int = defaultThreadCount
    ) -> ImageBuffer {
        precondition(dstWidth > 0 && dstHeight > 0, "Resampler: destination size must be positive")
        var pixels = [UInt8](repeating: 0, count: dstWidth * dstHeight * 3)
        pixels.withUnsafeMutableBytes { out in
            resizeBilinearAntialiased(
                source, into: out.baseAddress!, width: dstWidth, height: dstHeight,
                plan: plan, threads: threads)
        }
        return ImageBuffer(width: dstWidth, height: dstHeight, format: .rgb8, pixels: pixels)
    }
}
