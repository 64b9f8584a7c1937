import LiteVisionSystem

/// How a packed picture (one plane of interleaved pixels) must be laid out in memory before FFmpeg's vector code
/// reads or writes it.
///
/// swscale converts rows in blocks of 8 to 32 pixels and stores (or loads) whole vector registers: a row of
/// 426 RGB pixels is written as 432, and the last row runs past the picture. A tightly packed buffer of exactly
/// `width * bytesPerPixel * height` bytes is therefore overrun (a heap overflow for any width that is not a
/// multiple of the block), and a stride too small for a whole block leaves the row's last pixels unconverted.
/// FFmpeg's own buffers avoid both the way this layout does: rows have room for whole blocks and are a multiple of
/// ``alignment`` bytes apart (as `av_frame_get_buffer` pads and aligns them), and ``padding`` bytes follow the last row
/// (as `AV_INPUT_BUFFER_PADDING_SIZE` and `av_frame_get_buffer`'s extra bytes do). A buffer of ``capacity`` bytes
/// with rows ``stride`` apart is safe for swscale in every direction; `PictureLayoutTests` checks it for every
/// size up to 64x64 with the buffer's end against an unmapped page. The buffer itself needs the 16-byte alignment
/// swscale checks for (`& 15`), which a Swift array's storage has: rows then start 16-byte aligned and a multiple
/// of ``alignment`` bytes apart.
struct PictureLayout: Equatable {
    /// Row alignment in bytes: the widest vector FFmpeg uses (AVX-512), as `av_cpu_max_align()` reports at most.
    static let alignment = 64
    /// Rows have room for a whole number of blocks of this many pixels: swscale's vector converters work on
    /// blocks of up to 32 pixels, and those that would not fit in the row's stride leave the last pixels of the
    /// row unconverted (a 17-pixel row with a 64-byte stride kept 5 pixels of garbage).
    static let block = 32
    /// Bytes after the last row that vector code may touch: more than a 32-pixel block of 4-byte pixels plus a
    /// vector register.
    static let padding = 256

    /// Width and height in pixels.
    let width: Int, height: Int
    /// Bytes of one row's pixels (`width * bytesPerPixel`).
    let rowBytes: Int
    /// Distance between the starts of two rows: the width rounded up to ``block`` pixels, in bytes rounded up to
    /// ``alignment``.
    let stride: Int
    /// Bytes to allocate: ``stride`` times the height, plus ``padding``.
    let capacity: Int

    /// The layout of a `width` x `height` picture of `bytesPerPixel`-byte pixels (sizes already bounded by the
    /// caller, so that nothing overflows).
    init(width: Int, height: Int, bytesPerPixel: Int) {
        precondition(width > 0 && height > 0 && bytesPerPixel > 0, "PictureLayout: empty picture")
        self.width = width
        self.height = height
        rowBytes = width * bytesPerPixel
        let blockWidth = (width + Self.block - 1) / Self.block * Self.block
        stride = (blockWidth * bytesPerPixel + Self.alignment - 1) / Self.alignment * Self.alignment
        capacity = stride * height + Self.padding
    }

    /// Bytes of the picture with tightly packed rows.
    var packedByteCount: Int { rowBytes * height }

    /// Moves the rows of a picture written with ``stride`` together so that they are ``rowBytes`` apart, in
    /// place (rows only move towards the start, in order, so none is overwritten before it has moved).
    func pack(_ base: UnsafeMutablePointer<UInt8>) {
        guard stride != rowBytes else { return }
        for row in 1..<height {
            memmove(base + row * rowBytes, base + row * stride, rowBytes)
        }
    }
}
