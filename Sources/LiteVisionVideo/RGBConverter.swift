import CFFmpeg
import LiteVisionImaging

/// Converts decoded frames (any pixel format FFmpeg decodes to) to tightly packed RGB24 with swscale,
/// writing straight into the new image's storage (laid out as ``PictureLayout`` says, so that swscale's vector
/// code stays inside it). Keeps one swscale context, rebuilt only when the frame
/// size, pixel format or colour matrix changes. Owned by one decoder; not for concurrent use.
final class RGBConverter {
    /// The largest width or height accepted from a file; bigger claims are treated as damage.
    static let maximumDimension = 16_384

    /// The deprecated "J" pixel formats, full range whatever the frame's `color_range` says.
    private static let fullRangeFormats: Set<Int32> = [
        AV_PIX_FMT_YUVJ420P.rawValue, AV_PIX_FMT_YUVJ422P.rawValue, AV_PIX_FMT_YUVJ444P.rawValue,
        AV_PIX_FMT_YUVJ440P.rawValue, AV_PIX_FMT_YUVJ411P.rawValue,
    ]

    private var context: OpaquePointer?
    private var colorKey: (space: Int32, fullRange: Int32)?

    deinit { sws_freeContext(context) }

    /// The frame as an RGB image, or a reason why it cannot be converted.
    func convert(_ frame: UnsafePointer<AVFrame>) -> Result<ImageBuffer, ConversionFailure> {
        let context: OpaquePointer
        switch prepare(for: frame) {
        case .success(let prepared): context = prepared
        case .failure(let failure): return .failure(failure)
        }
        let width = Int(frame.pointee.width), height = Int(frame.pointee.height)

        // swscale writes whole vector registers: it gets rows aligned and padding after the last one, and the
        // rows are packed together afterwards (a no-op when the row size is already aligned: 640, 1280, 1920...).
        let layout = PictureLayout(width: width, height: height, bytesPerPixel: 3)
        var failed = false
        let pixels = [UInt8](unsafeUninitializedCapacity: layout.capacity) { buffer, count in
            guard let base = buffer.baseAddress, Self.scale(frame, with: context, into: base, layout: layout) else {
                failed = true
                count = 0
                return
            }
            layout.pack(base)
            count = layout.packedByteCount
        }
        if failed { return .failure(ConversionFailure(reason: "converting a frame to RGB failed")) }
        return .success(
            ImageBuffer(width: width, height: height, format: .rgb8, bytesPerRow: layout.rowBytes, pixels: pixels))
    }

    /// The swscale context for `frame` (its size checked, the colour matrix applied), or why it cannot be
    /// converted.
    func prepare(for frame: UnsafePointer<AVFrame>) -> Result<OpaquePointer, ConversionFailure> {
        let width = Int(frame.pointee.width), height = Int(frame.pointee.height)
        guard (1...Self.maximumDimension).contains(width), (1...Self.maximumDimension).contains(height) else {
            let reason = "the decoder produced a frame of invalid size \(width)x\(height)"
            return .failure(ConversionFailure(reason: reason))
        }
        let format = AVPixelFormat(rawValue: frame.pointee.format)
        guard frame.pointee.format >= 0, frame.pointee.data.0 != nil else {
            return .failure(ConversionFailure(reason: "the decoder produced a frame without pixels"))
        }
        let previous = context
        context = sws_getCachedContext(
            context, Int32(width), Int32(height), format,
            Int32(width), Int32(height), AV_PIX_FMT_RGB24,
            SWS_BILINEAR, nil, nil, nil)
        guard let context else {
            colorKey = nil
            let name = av_get_pix_fmt_name(format).map { String(cString: $0) } ?? "#\(frame.pointee.format)"
            return .failure(ConversionFailure(reason: "frames in pixel format \(name) cannot be converted to RGB"))
        }
        if context != previous { colorKey = nil }
        applyColorMatrix(of: frame, format: format, to: context)
        return .success(context)
    }

    /// Converts `frame` with `context` into `destination`, which holds `layout.capacity` bytes; its rows are
    /// `layout.stride` apart. `false` when swscale converted fewer rows than the frame has.
    static func scale(
        _ frame: UnsafePointer<AVFrame>, with context: OpaquePointer, into destination: UnsafeMutablePointer<UInt8>,
        layout: PictureLayout
    ) -> Bool {
        var planes: [UnsafeMutablePointer<UInt8>?] = [destination, nil, nil, nil]
        var strides: [Int32] = [Int32(layout.stride), 0, 0, 0]
        let rows = withUnsafePointer(to: frame.pointee.data) { dataTuple in
            withUnsafePointer(to: frame.pointee.linesize) { strideTuple in
                dataTuple.withMemoryRebound(to: UnsafePointer<UInt8>?.self, capacity: 8) { sourcePlanes in
                    strideTuple.withMemoryRebound(to: Int32.self, capacity: 8) { sourceStrides in
                        sws_scale(context, sourcePlanes, sourceStrides, 0, Int32(layout.height), &planes, &strides)
                    }
                }
            }
        }
        return rows == Int32(layout.height)
    }

    /// Tells swscale which YUV matrix and range the frame uses (BT.601 when the stream does not say).
    private func applyColorMatrix(of frame: UnsafePointer<AVFrame>, format: AVPixelFormat, to context: OpaquePointer) {
        let fullRange: Int32 =
            frame.pointee.color_range == AVCOL_RANGE_JPEG
                || Self.fullRangeFormats.contains(format.rawValue) ? 1 : 0
        let space = Int32(bitPattern: frame.pointee.colorspace.rawValue)
        if let key = colorKey, key.space == space, key.fullRange == fullRange { return }
        colorKey = (space, fullRange)
        // Fails (harmlessly) for RGB sources, which have no matrix.
        _ = sws_setColorspaceDetails(
            context, sws_getCoefficients(space), fullRange,
            sws_getCoefficients(SWS_CS_DEFAULT), 1, 0, 1 << 16, 1 << 16)
    }
}

/// Why a decoded frame could not be turned into an image.
struct ConversionFailure: Error {
    let reason: String
}
