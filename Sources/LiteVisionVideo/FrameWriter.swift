import CFFmpeg
import LiteVisionImaging

/// The per-frame work of ``VideoEncoder``: pixel conversion and moving packets into the container.
enum FrameWriter {
    /// Converts `image` into the encoder's reusable YUV 4:2:0 frame. The image is first copied into a staging
    /// picture FFmpeg allocated (rows aligned and padded, as swscale's vector code reads whole registers: the
    /// image's own storage is tightly packed and ends right after its last pixel); an odd width or height gets
    /// one more column or row repeating the last one, since 4:2:0 video has even sizes.
    static func convert(_ image: ImageBuffer, into resources: EncoderResources) throws(VideoError) {
        guard let frame = resources.frame else { throw .encoder("closed") }
        let source: AVPixelFormat =
            switch image.format {
            case .rgb8: AV_PIX_FMT_RGB24
            case .rgba8: AV_PIX_FMT_RGBA
            case .bgra8: AV_PIX_FMT_BGRA
            case .gray8: AV_PIX_FMT_GRAY8
            }
        let staging = try stagingFrame(resources, format: source, like: frame)
        copy(image, into: staging)
        resources.scaler = sws_getCachedContext(
            resources.scaler, staging.pointee.width, staging.pointee.height, source,
            frame.pointee.width, frame.pointee.height, AV_PIX_FMT_YUV420P,
            SWS_BILINEAR, nil, nil, nil)
        guard let scaler = resources.scaler else { throw .encoder("cannot convert \(image.format) images to YUV") }
        // The encoder may still hold a reference to the previous picture.
        let writable = av_frame_make_writable(frame)
        guard writable >= 0 else { throw .systemResource("out of memory (\(FFmpegError.message(writable)))") }
        let rows = withUnsafePointer(to: &staging.pointee.data) { inTuple in
            withUnsafePointer(to: &staging.pointee.linesize) { inStrideTuple in
                withUnsafeMutablePointer(to: &frame.pointee.data) { outTuple in
                    withUnsafeMutablePointer(to: &frame.pointee.linesize) { outStrideTuple in
                        inTuple.withMemoryRebound(to: UnsafePointer<UInt8>?.self, capacity: 8) { inPlanes in
                            inStrideTuple.withMemoryRebound(to: Int32.self, capacity: 8) { inStrides in
                                outTuple.withMemoryRebound(to: UnsafeMutablePointer<UInt8>?.self, capacity: 8) {
                                    outPlanes in
                                    outStrideTuple.withMemoryRebound(to: Int32.self, capacity: 8) { outStrides in
                                        sws_scale(
                                            scaler, inPlanes, inStrides, 0, staging.pointee.height, outPlanes,
                                            outStrides)
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
        guard rows == staging.pointee.height else { throw .encoder("converting an image to YUV failed") }
    }

    /// The staging picture in `format` at the size of the encoder's `frame`, allocated by FFmpeg (aligned rows,
    /// padding after the last) once per pixel format.
    private static func stagingFrame(
        _ resources: EncoderResources, format: AVPixelFormat, like frame: UnsafeMutablePointer<AVFrame>
    ) throws(VideoError) -> UnsafeMutablePointer<AVFrame> {
        if let staging = resources.staging, staging.pointee.format == format.rawValue { return staging }
        av_frame_free(&resources.staging)
        guard let staging = av_frame_alloc() else { throw .systemResource("out of memory while encoding") }
        resources.staging = staging
        staging.pointee.format = format.rawValue
        staging.pointee.width = frame.pointee.width
        staging.pointee.height = frame.pointee.height
        let allocated = av_frame_get_buffer(staging, 0)
        guard allocated >= 0 else { throw .systemResource("out of memory (\(FFmpegError.message(allocated)))") }
        return staging
    }

    /// Copies the rows of `image` into `staging`, which may be one pixel wider and one row taller: the extra
    /// column and row repeat the image's last ones.
    private static func copy(_ image: ImageBuffer, into staging: UnsafeMutablePointer<AVFrame>) {
        guard let base = staging.pointee.data.0 else { return }
        let pixelBytes = image.format.bytesPerPixel
        let rowBytes = image.width * pixelBytes
        let stride = Int(staging.pointee.linesize.0)
        let width = Int(staging.pointee.width), height = Int(staging.pointee.height)
        image.pixels.withUnsafeBufferPointer { pixels in
            guard let source = pixels.baseAddress else { return }
            for row in 0..<height {
                let target = base + row * stride
                target.update(from: source + min(row, image.height - 1) * image.bytesPerRow, count: rowBytes)
                for column in image.width..<max(image.width, width) {
                    (target + column * pixelBytes).update(from: target + rowBytes - pixelBytes, count: pixelBytes)
                }
            }
        }
    }

    /// Moves every packet the encoder has ready into the container.
    static func writePackets(_ resources: EncoderResources) throws(VideoError) {
        guard let codec = resources.codec, let format = resources.format, let stream = resources.stream,
            let packet = resources.packet
        else { throw .encoder("closed") }
        while true {
            let received = avcodec_receive_packet(codec, packet)
            if received == FFmpegError.tryAgain || received == FFmpegError.endOfFile { return }
            guard received >= 0 else { throw .encoder("encoding failed (\(FFmpegError.message(received)))") }
            av_packet_rescale_ts(packet, codec.pointee.time_base, stream.pointee.time_base)
            packet.pointee.stream_index = stream.pointee.index
            let written = av_interleaved_write_frame(format, packet)  // takes the packet's data, even on failure
            guard written >= 0 else { throw .encoder("cannot write to the file (\(FFmpegError.message(written)))") }
        }
    }
}
