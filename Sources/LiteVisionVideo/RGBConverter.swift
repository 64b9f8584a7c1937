import CFFmpeg
import LiteVisionImaging

/// Converts decoded frames (any pixel format FFmpeg decodes to) to tightly packed RGB24 with swscale,
/// writing straight into the new image's storage. Keeps one swscale context, rebuilt only when the frame
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

        let rowBytes = width * 3
        var failed = false
        let pixels = [UInt8](unsafeUninitializedCapacity: rowBytes * height) { buffer, count in
            var destination: [UnsafeMutablePointer<UInt8>?] = [buffer.baseAddress, nil, nil, nil]
            var destinationStride: [Int32] = [Int32(rowBytes), 0, 0, 0]
            let rows = withUnsafePointer(to: frame.pointee.data) { dataTuple in
                withUnsafePointer(to: frame.pointee.linesize) { strideTuple in
                    dataTuple.withMemoryRebound(to: UnsafePointer<UInt8>?.self, capacity: 8) { planes in
                        strideTuple.withMemoryRebound(to: Int32.self, capacity: 8) { strides in
                            sws_scale(context, planes, strides, 0, Int32(height), &destination, &destinationStride)
                        }
                    }
                }
            }
            if rows != Int32(height) {
                failed = true
                buffer.initialize(repeating: 0)  // keep the array fully initialised before it is discarded
            }
            count = rowBytes * height
        }
        if failed { return .failure(ConversionFailure(reason: "converting a frame to RGB failed")) }
        return .success(ImageBuffer(width: width, height: height, format: .rgb8, bytesPerRow: rowBytes, pixels: pixels))
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
