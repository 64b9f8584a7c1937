import CFFmpeg
import LiteVisionSystem

/// Creates the container, the encoder and the stream of a new video, and opens its temporary file.
enum EncoderSetup {
    private static let outOfMemory = VideoError.systemResource("out of memory while creating the encoder")

    /// Everything ``VideoEncoder`` needs, ready for the first frame; the header is written.
    static func open(
        path: String, width: Int, height: Int, frameRate: Double,
        codecChoice: VideoCodecChoice, fragmented: Bool = false
    ) throws(VideoError) -> (EncoderResources, codecName: String) {
        FFmpegLogging.applyDefault()
        let limit = RGBConverter.maximumDimension
        guard (1...limit).contains(width), (1...limit).contains(height) else {
            throw .invalidArgument("the video size \(width)x\(height) is outside 1...\(limit)")
        }
        guard frameRate.isFinite, frameRate > 0, frameRate <= 1000 else {
            throw .invalidArgument("the frame rate \(frameRate) is outside (0, 1000] frames per second")
        }
        guard let encoder = codecChoice.findEncoder() else {
            throw .encoder("this FFmpeg build has no \(codecChoice) encoder")
        }
        let file: AtomicFile
        do {
            file = try AtomicFile(path: path, opened: false)
        } catch {
            throw .encoder("cannot write the video to '\(path)': \(error.reason)")
        }
        let resources = EncoderResources(file: file)

        // The container follows the final name's extension (.mp4, .mov, .mkv...), MP4 when it names none.
        guard let container = av_guess_format(nil, path, nil) ?? av_guess_format("mp4", nil, nil) else {
            throw .encoder("this FFmpeg build cannot write MP4 files")
        }
        var allocated: UnsafeMutablePointer<AVFormatContext>?
        let allocResult = avformat_alloc_output_context2(&allocated, container, nil, resources.temporaryPath)
        guard allocResult >= 0, let format = allocated else {
            throw .encoder("cannot create the container (\(FFmpegError.message(allocResult)))")
        }
        resources.format = format

        // 4:2:0 video has even sizes: an odd width or height is padded by one column or row (FrameWriter).
        let (width, height) = (width + width % 2, height + height % 2)
        let rate = av_d2q(frameRate, 65_535)  // MPEG-4 Part 2 allows time bases up to 1/65535
        guard let codec = avcodec_alloc_context3(encoder) else { throw outOfMemory }
        resources.codec = codec
        configure(codec, encoder: encoder, width: width, height: height, rate: rate)
        if container.pointee.flags & AVFMT_GLOBALHEADER != 0 {
            codec.pointee.flags |= Int32(AV_CODEC_FLAG_GLOBAL_HEADER)
        }
        let encoderName = String(cString: encoder.pointee.name)
        let opened = avcodec_open2(codec, encoder, nil)
        guard opened >= 0 else {
            throw .encoder(
                "the \(encoderName) encoder refused \(width)x\(height) at \(frameRate) fps "
                    + "(\(FFmpegError.message(opened)))")
        }

        guard let stream = avformat_new_stream(format, nil) else { throw outOfMemory }
        resources.stream = stream
        stream.pointee.time_base = codec.pointee.time_base
        stream.pointee.avg_frame_rate = rate
        let copied = avcodec_parameters_from_context(stream.pointee.codecpar, codec)
        guard copied >= 0 else { throw .encoder("cannot describe the stream (\(FFmpegError.message(copied)))") }

        try openFile(resources, format: format, container: container, finalPath: path, fragmented: fragmented)
        try allocateFrame(resources, width: width, height: height)
        return (resources, encoderName)
    }

    /// Size, pixel format, timing, colour tags and quality settings of the encoder.
    private static func configure(
        _ codec: UnsafeMutablePointer<AVCodecContext>, encoder: UnsafePointer<AVCodec>,
        width: Int, height: Int, rate: AVRational
    ) {
        codec.pointee.width = Int32(width)
        codec.pointee.height = Int32(height)
        codec.pointee.pix_fmt = AV_PIX_FMT_YUV420P
        codec.pointee.time_base = AVRational(num: rate.den, den: rate.num)
        codec.pointee.framerate = rate
        codec.pointee.gop_size = Int32(max(1, min(600, (2 * Double(rate.num) / Double(rate.den)).rounded())))
        codec.pointee.colorspace = AVCOL_SPC_SMPTE170M  // what swscale's RGB to YUV conversion produces
        codec.pointee.color_range = AVCOL_RANGE_MPEG
        codec.pointee.thread_count = 0
        if encoder.pointee.id == AV_CODEC_ID_H264 {
            _ = av_opt_set(codec.pointee.priv_data, "preset", "veryfast", 0)
            _ = av_opt_set(codec.pointee.priv_data, "crf", "20", 0)
        } else {
            // Constant quality, quantiser 3 (of 1...31): sharp enough for annotations to stay readable.
            codec.pointee.flags |= Int32(AV_CODEC_FLAG_QSCALE)
            codec.pointee.global_quality = 3 * FF_QP2LAMBDA
        }
    }

    /// Opens the temporary file and writes the container header.
    private static func openFile(
        _ resources: EncoderResources, format: UnsafeMutablePointer<AVFormatContext>,
        container: UnsafePointer<AVOutputFormat>, finalPath: String, fragmented: Bool
    ) throws(VideoError) {
        if container.pointee.flags & AVFMT_NOFILE == 0 {
            let opened = avio_open(&format.pointee.pb, resources.temporaryPath, AVIO_FLAG_WRITE)
            guard opened >= 0 else {
                throw .encoder("cannot create a file next to '\(finalPath)' (\(FFmpegError.message(opened)))")
            }
            resources.fileOpen = true
        }
        var options: OpaquePointer?
        defer { av_dict_free(&options) }
        if fragmented {
            // A header without samples, then a fragment per keyframe (every 2 s), each written out at once: the
            // file plays up to its last fragment even if the process is killed.
            _ = av_dict_set(&options, "movflags", "+frag_keyframe+empty_moov+default_base_moof", 0)
            format.pointee.flush_packets = 1
        } else {
            _ = av_dict_set(&options, "movflags", "+faststart", 0)  // index first: playable while downloading
        }
        let written = avformat_write_header(format, &options)
        guard written >= 0 else {
            throw .encoder("cannot write the header of '\(finalPath)' (\(FFmpegError.message(written)))")
        }
    }

    /// The reusable YUV picture each appended image is converted into, and the packet for the output.
    private static func allocateFrame(_ resources: EncoderResources, width: Int, height: Int) throws(VideoError) {
        guard let frame = av_frame_alloc(), let packet = av_packet_alloc() else { throw outOfMemory }
        resources.frame = frame
        resources.packet = packet
        frame.pointee.format = AV_PIX_FMT_YUV420P.rawValue
        frame.pointee.width = Int32(width)
        frame.pointee.height = Int32(height)
        let allocated = av_frame_get_buffer(frame, 0)
        guard allocated >= 0 else { throw outOfMemory }
    }
}
