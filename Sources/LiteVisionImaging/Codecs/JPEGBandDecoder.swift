import CJPEGBands
import Dispatch
import Synchronization

/// Decodes a large single-scan JPEG on several threads, each decoding one horizontal band of rows with
/// libjpeg-turbo's libjpeg API (see ``JPEGBandPlan`` for how the rows are shared).
///
/// The pixels are the ones a whole-image decode with TurboJPEG gives, byte for byte: the same library, the same
/// settings (accurate integer IDCT, smooth upsampling), and libjpeg's row skipping keeps the rows around a band
/// boundary exact. The tests check it for every shared photo at every scale, with band boundaries just before, on
/// and after an iMCU row and at odd rows; the image fuzz target compares the two decodes on every input.
///
/// Only clean files are decoded this way. The first warning in any band (damaged data, a file cut short)
/// stops it, and then the decode returns `false`, so that the caller
/// decodes the file whole on one thread and classifies the damage exactly as before. Every band's decoder
/// reads the compressed data from the start, and the last one reads it to its end, so no damage can go
/// unnoticed by the bands together.
enum JPEGBandDecoder {
    /// Decodes `bytes` (a `storedWidth`×`storedHeight` JPEG) at `1/denominator` into `destination` (tightly
    /// packed RGB8, `width`×`height`) when the file is a single-scan colour or grayscale JPEG large enough for a
    /// ``JPEGBandPlan`` with `threads` threads (no more than the cores), and returns the number of bands, or 0
    /// when it did not (`destination` is then unspecified; nothing is thrown).
    static func decode(
        _ bytes: ByteView, storedWidth: Int, storedHeight: Int, denominator: Int, width: Int, height: Int,
        into destination: UnsafeMutableBufferPointer<UInt8>, threads: Int,
        minimumPixelCount: Int = JPEGBandPlan.minimumPixelCount
    ) -> Int {
        let threads = min(threads, Resampler.defaultThreadCount)
        // libjpeg scales by exactly 1/denominator; TurboJPEG may choose another factor for a tiny side.
        guard threads >= 2, JPEGScaling.turboJPEGScales(width: storedWidth, height: storedHeight, by: denominator),
            let layout = layout(bytes, denominator: denominator),
            layout.single_scan != 0, Int(layout.width) == width, Int(layout.height) == height,
            let plan = JPEGBandPlan(
                width: width, height: height, compressedBytes: bytes.count,
                rowsPerIMCURow: Int(layout.rows_per_imcu_row), threads: threads,
                minimumPixelCount: minimumPixelCount)
        else { return 0 }
        let decoded = decode(
            bytes, denominator: denominator, width: width, height: height, into: destination, plan: plan)
        return decoded ? plan.bandCount : 0
    }

    /// Decodes `bytes` in the bands of `plan`, one thread each, and reports whether every band was decoded.
    static func decode(
        _ bytes: ByteView, denominator: Int, width: Int, height: Int,
        into destination: UnsafeMutableBufferPointer<UInt8>, plan: JPEGBandPlan
    ) -> Bool {
        guard plan.boundaries.last == height, destination.count >= width * height * 3,
            let source = bytes.bytes.baseAddress?.assumingMemoryBound(to: UInt8.self),
            let output = destination.baseAddress
        else { return false }
        let job = BandJob(
            source: source, size: bytes.count, denominator: UInt32(denominator),
            width: width, height: height, output: output)
        let failures = Atomic<Int>(0)
        DispatchQueue.concurrentPerform(iterations: plan.bandCount) { band in
            if !job.decode(rows: plan.rows(ofBand: band)) { failures.add(1, ordering: .relaxed) }
        }
        return failures.load(ordering: .relaxed) == 0
    }

    /// The image's size at `1/denominator`, its rows per iMCU row and whether it is a single scan; `nil` when
    /// libjpeg cannot read its headers (the whole-image decode will then report why).
    static func layout(_ bytes: ByteView, denominator: Int) -> lv_jpeg_band_layout? {
        guard let source = bytes.bytes.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return nil }
        var layout = lv_jpeg_band_layout()
        var message = [CChar](repeating: 0, count: 200)
        let status = lv_jpeg_band_layout_read(
            source, bytes.count, UInt32(denominator), &layout, &message, message.count)
        return status == 0 ? layout : nil
    }
}

/// One image's band decoding, shared by the threads of ``JPEGBandDecoder``.
///
/// `@unchecked Sendable`: it only holds pointers to memory that outlives the synchronous `concurrentPerform`
/// call that uses it; the compressed bytes are only read, and each thread writes the rows of its own band.
private struct BandJob: @unchecked Sendable {
    let source: UnsafePointer<UInt8>
    let size: Int
    let denominator: UInt32
    let width: Int
    let height: Int
    let output: UnsafeMutablePointer<UInt8>

    /// Decodes `rows` into their place in `output`; `false` at the first libjpeg warning or error.
    func decode(rows: Range<Int>) -> Bool {
        var message = [CChar](repeating: 0, count: 200)
        let stride = width * 3
        let status = lv_jpeg_band_decode_rgb(
            source, size, denominator, UInt32(width), UInt32(height),
            UInt32(rows.lowerBound), UInt32(rows.count),
            output + rows.lowerBound * stride, stride, &message, message.count)
        return status == 0
    }
}
