import CFFmpeg
import LiteVisionImaging

/// The per-frame work of ``VideoEncoder``: pixel conversion and moving packets into the container.
enum FrameWriter {
    /// Converts `image` into the encoder's reusable YUV 4:2:0 frame.
    static func convert(_ image: ImageBuffer, into resources: EncoderResources) throws(VideoError) {
        guard let frame = resources.frame else { throw .encoder("closed") }
        let source: AVPixelFormat =
            switch image.format {
            case .rgb8: AV_PIX_FMT_RGB24
            case .rgba8: AV_PIX_FMT_RGBA
            case .bgra8: AV_PIX_FMT_BGRA
            case .gray8: AV_PIX_FMT_GRAY8
            }
        resources.scaler = sws_getCachedContext(
            resources.scaler, Int32(image.width), Int32(image.height), source,
            frame.pointee.width, frame.pointee.height, AV_PIX_FMT_YUV420P,
            SWS_BILINEAR, nil, nil, nil)
        guard let scaler = resources.scaler else { throw .encoder("cannot convert \(image.format) images to YUV") }
        // The encoder may still hold a reference to the previous picture.
        let writable = av_frame_make_writable(frame)
        guard writable >= 0 else { throw .systemResource("out of memory (\(FFmpegError.message(writable)))") }
        let rows = image.pixels.withUnsafeBufferPointer { pixels -> Int32 in
            var planes: [UnsafePointer<UInt8>?] = [pixels.baseAddress, nil, nil, nil]
            var strides: [Int32] = [Int32(image.bytesPerRow), 0, 0, 0]
            return withUnsafeMutablePointer(to: &frame.pointee.data) { dataTuple in
                withUnsafeMutablePointer(to: &frame.pointee.linesize) { strideTuple in
                    dataTuple.withMemoryRebound(to: UnsafeMutablePointer<UInt8>?.self, capacity: 8) { outPlanes in
                        strideTuple.withMemoryRebound(to: Int32.self, capacity: 8) { outStrides in
                            sws_scale(scaler, &planes, &strides, 0, Int32(image.height), outPlanes, outStrides)
                        }
                    }
                }
            }
        }
        guard rows == Int32(image.height) else { throw .encoder("converting an image to YUV failed") }
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
