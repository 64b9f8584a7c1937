import CFFmpeg
import LiteVisionSystem

/// A video file opened for decoding: the container, the chosen video stream and a ready decoder.
struct OpenedStream {
    let resources: DecoderResources
    /// Index of the video stream in the container.
    let streamIndex: Int32
    let info: VideoInfo
    /// Seconds per tick of the stream's timestamps.
    let secondsPerTick: Double
    /// The stream's first timestamp, in ticks (0 when the container does not say).
    let startTicks: Int64
    /// How many frames the container says the stream has, `nil` when it does not say (no estimate).
    let declaredFrameCount: Int?
    /// Whether frames are timed by when they arrive: a live input of unknown length whose format carries no
    /// timestamps (a camera's MJPEG over HTTP, for which FFmpeg makes up 25 a second whatever the camera's rate), or
    /// that is a bare video stream (raw H.264 or H.265 over TCP or UDP: FFmpeg times its frames by the rate its
    /// parameter sets declare, or 25 a second, not as they come). A stream whose length FFmpeg knows keeps FFmpeg's
    /// timing (it arrives as fast as it is read), and so does a file on a web server (``isServedFile``). A bare
    /// video file from a server that takes no byte ranges cannot be told from a camera: it is timed by arrival, as
    /// fast as it is read.
    let timedByArrival: Bool
    /// Whether a network input of a format with no timestamps of its own (a bare video stream, multipart JPEG) is a
    /// file on a web server: the server gave its size and takes byte ranges (FFmpeg can seek it), as nginx serves a
    /// `.h264` file; a camera's stream has no size. Such an input keeps FFmpeg's timing and, at the file's end, ends
    /// (a connection dropped midway is still reconnected, from the start). A server that gives a false size with
    /// byte ranges passes for a file.
    let isServedFile: Bool
}

/// Opens a file, picks its video stream and opens a decoder for it, turning each failure into the
/// ``VideoError`` case that names it.
enum StreamOpener {
    /// Opens the video file at `path` (the decoder's way: every frame, frame threading).
    static func open(path: String, threadCount: Int, maxPixelCount: Int) throws(VideoError) -> OpenedStream {
        let location = try SourceLocation(file: path)
        return try open(location, settings: OpenSettings(threadCount: threadCount, maxPixelCount: maxPixelCount))
    }

    /// Opens any source: its container (with the protocols its kind may use), its video stream and a decoder. A
    /// live source's decoder trades frame threading for low delay.
    static func open(_ location: SourceLocation, settings: OpenSettings) throws(VideoError) -> OpenedStream {
        FFmpegLogging.applyDefault()
        do {
            return try openStream(location, settings: settings)
        } catch {
            guard location.kind != .file else { throw error }
            // What the file-oriented steps below say of a live source, said of a connection.
            switch error {
            case .notAVideo(_, let reason), .corrupt(_, _, let reason):
                if settings.interrupt?.lastCause == .deadline {
                    throw InputOpener.failure(FFmpegError.exit, location: location, settings: settings, stage: "")
                }
                if location.kind == .device { throw .deviceUnavailable(path: location.displayName, reason: reason) }
                throw .connectionFailed(location: location.displayName, cause: .notAVideoStream(reason))
            default: throw error
            }
        }
    }

    private static func openStream(
        _ location: SourceLocation, settings: OpenSettings
    ) throws(VideoError) -> OpenedStream {
        let path = location.displayName, maxPixelCount = settings.maxPixelCount
        let resources = DecoderResources()
        let format = try InputOpener.open(location, settings: settings, into: resources)
        let live = location.kind != .file
        // Before probing, which decodes frames: refuse what the headers already declare too large.
        for index in 0..<Int(format.pointee.nb_streams) {
            guard let parameters = format.pointee.streams[index]?.pointee.codecpar,
                parameters.pointee.codec_type == AVMEDIA_TYPE_VIDEO
            else { continue }
            try checkSize(parameters, path: path, limit: maxPixelCount)
        }
        let probeResult = findStreamInfo(format, maxPixelCount: maxPixelCount)
        guard probeResult >= 0 else {
            throw .notAVideo(path: path, reason: "its streams could not be read (\(FFmpegError.message(probeResult)))")
        }

        let index = try videoStreamIndex(in: format, path: path)
        guard let stream = format.pointee.streams[Int(index)], let parameters = stream.pointee.codecpar else {
            throw .notAVideo(path: path, reason: "the video stream has no codec parameters")
        }
        for other in 0..<Int(format.pointee.nb_streams) where other != Int(index) {
            format.pointee.streams[other]?.pointee.discard = AVDISCARD_ALL  // skip audio etc. while demuxing
        }

        guard let decoder = avcodec_find_decoder(parameters.pointee.codec_id) else {
            throw .unsupportedCodec(path: path, codec: codecName(parameters))
        }
        try checkSize(parameters, path: path, limit: maxPixelCount)
        let width = Int(parameters.pointee.width), height = Int(parameters.pointee.height)
        let limit = RGBConverter.maximumDimension
        guard (1...limit).contains(width), (1...limit).contains(height) else {
            guard width > 0, height > 0 else {
                // The container does not say, and probing could not decode a frame (FFmpeg also refuses, then,
                // frames over the pixel limit).
                throw .notAVideo(
                    path: path,
                    reason: "the size of its frames is unknown: the container does not declare it and no frame "
                        + "could be decoded within the limit of \(maxPixelCount) pixels")
            }
            throw .notAVideo(path: path, reason: "the video stream declares an invalid frame size \(width)x\(height)")
        }

        guard let codec = avcodec_alloc_context3(decoder) else {
            throw .systemResource("out of memory while creating the decoder")
        }
        resources.codec = codec
        let copied = avcodec_parameters_to_context(codec, parameters)
        guard copied >= 0 else {
            throw .corrupt(path: path, frame: 0, reason: "bad codec parameters (\(FFmpegError.message(copied)))")
        }
        codec.pointee.thread_count = Int32(max(0, settings.threadCount))
        // Frame threading holds frames back (one per thread): fine for files, latency for a live source.
        codec.pointee.thread_type = live ? FF_THREAD_SLICE : FF_THREAD_FRAME | FF_THREAD_SLICE
        if live { codec.pointee.flags |= Int32(AV_CODEC_FLAG_LOW_DELAY) }
        codec.pointee.pkt_timebase = stream.pointee.time_base
        codec.pointee.max_pixels = Int64(maxPixelCount)  // FFmpeg refuses larger frames met later in the stream
        let decoderOpened = avcodec_open2(codec, decoder, nil)
        guard decoderOpened >= 0 else {
            throw .corrupt(
                path: path, frame: 0,
                reason: "the \(codecName(parameters)) decoder rejected the stream "
                    + "(\(FFmpegError.message(decoderOpened)))")
        }
        guard let packet = av_packet_alloc(), let frame = av_frame_alloc() else {
            throw .systemResource("out of memory while creating the decoder")
        }
        resources.packet = packet
        resources.frame = frame

        let timeBase = stream.pointee.time_base
        let secondsPerTick = timeBase.num > 0 && timeBase.den > 0 ? Double(timeBase.num) / Double(timeBase.den) : 0
        let start = stream.pointee.start_time
        let info = describe(stream: stream, format: format, parameters: parameters, secondsPerTick: secondsPerTick)
        let untimed = format.pointee.iformat.pointee.flags & AVFMT_NOTIMESTAMPS != 0 || isBareVideo(format)
        let servedFile = live && untimed && hasSizeAndSeeks(format)
        return OpenedStream(
            resources: resources, streamIndex: index, info: info, secondsPerTick: secondsPerTick,
            startTicks: start == FFmpegError.noTimestamp ? 0 : start,
            declaredFrameCount: !live && stream.pointee.nb_frames > 0 ? Int(stream.pointee.nb_frames) : nil,
            timedByArrival: live && info.duration == nil && untimed && !servedFile, isServedFile: servedFile)
    }

    /// Whether `format`'s input says how long it is and can seek: a file, or a file on a web server that gave its
    /// `Content-Length` and `Accept-Ranges: bytes` (FFmpeg's HTTP reader seeks by ranges then).
    private static func hasSizeAndSeeks(_ format: UnsafeMutablePointer<AVFormatContext>) -> Bool {
        guard let input = format.pointee.pb, input.pointee.seekable & AVIO_SEEKABLE_NORMAL != 0 else { return false }
        return avio_size(input) > 0
    }

    /// Whether `format` reads a bare video stream, with no container around it (raw H.264, H.265, MJPEG, ...):
    /// FFmpeg's demuxers of those share one private class, the generic raw video demuxer's.
    private static func isBareVideo(_ format: UnsafeMutablePointer<AVFormatContext>) -> Bool {
        guard let type = format.pointee.iformat.pointee.priv_class, let name = type.pointee.class_name else {
            return false
        }
        return String(cString: name) == "generic raw video demuxer"
    }

    /// Refuses a video stream whose declared frames have more than `limit` pixels (unknown sizes pass).
    private static func checkSize(
        _ parameters: UnsafePointer<AVCodecParameters>, path: String, limit: Int
    ) throws(VideoError) {
        let width = Int(parameters.pointee.width), height = Int(parameters.pointee.height)
        guard width > 0, height > 0 else { return }
        let (pixels, overflow) = width.multipliedReportingOverflow(by: height)
        if overflow || pixels > limit { throw .tooLarge(path: path, width: width, height: height, limit: limit) }
    }

    /// `avformat_find_stream_info`, its probing decoders told to refuse frames of more than `maxPixelCount`
    /// pixels (FFmpeg's `max_pixels`), so that a size found only by decoding cannot allocate a huge frame.
    private static func findStreamInfo(
        _ format: UnsafeMutablePointer<AVFormatContext>, maxPixelCount: Int
    ) -> Int32 {
        let count = Int(format.pointee.nb_streams)
        guard count > 0 else { return avformat_find_stream_info(format, nil) }
        let options = UnsafeMutablePointer<OpaquePointer?>.allocate(capacity: count)
        options.initialize(repeating: nil, count: count)
        defer {
            for index in 0..<count { av_dict_free(&options[index]) }
            options.deallocate()
        }
        for index in 0..<count { av_dict_set_int(&options[index], "max_pixels", Int64(maxPixelCount), 0) }
        return avformat_find_stream_info(format, options)
    }

    /// The video stream to decode: FFmpeg's pick, unless that is a still cover picture.
    private static func videoStreamIndex(
        in format: UnsafeMutablePointer<AVFormatContext>,
        path: String
    ) throws(VideoError) -> Int32 {
        let count = Int(format.pointee.nb_streams)
        guard count > 0, let streams = format.pointee.streams else {
            throw .notAVideo(path: path, reason: "it contains no streams")
        }
        func isMovingVideo(_ index: Int) -> Bool {
            guard let stream = streams[index], let parameters = stream.pointee.codecpar else { return false }
            return parameters.pointee.codec_type == AVMEDIA_TYPE_VIDEO
                && stream.pointee.disposition & AV_DISPOSITION_ATTACHED_PIC == 0
        }
        let best = av_find_best_stream(format, AVMEDIA_TYPE_VIDEO, -1, -1, nil, 0)
        if best >= 0, Int(best) < count, isMovingVideo(Int(best)) { return best }
        if let first = (0..<count).first(where: isMovingVideo) { return Int32(first) }

        let kinds = (0..<count).compactMap { index -> String? in
            guard let type = streams[index]?.pointee.codecpar?.pointee.codec_type else { return nil }
            if type == AVMEDIA_TYPE_VIDEO { return "cover picture" }
            return av_get_media_type_string(type).map { String(cString: $0) }
        }
        let listed = kinds.isEmpty ? "" : " (it holds: \(kinds.joined(separator: ", ")))"
        throw .notAVideo(path: path, reason: "it has no video stream\(listed)")
    }

    /// FFmpeg's name of the stream's codec; for a codec FFmpeg does not know at all, its FourCC.
    static func codecName(_ parameters: UnsafePointer<AVCodecParameters>) -> String {
        let id = parameters.pointee.codec_id
        if id != AV_CODEC_ID_NONE, let name = avcodec_get_name(id) { return String(cString: name) }
        let tag = parameters.pointee.codec_tag
        let characters = (0..<4).map { UInt8(truncatingIfNeeded: tag >> (8 * $0)) }
        let printable = characters.allSatisfy { (0x20...0x7E).contains($0) }
        let fourCC = printable ? String(decoding: characters, as: UTF8.self) : "0x" + String(tag, radix: 16)
        return "unknown (FourCC \(fourCC))"
    }

    /// The ``VideoInfo`` of a stream, from the container's declarations.
    private static func describe(
        stream: UnsafeMutablePointer<AVStream>,
        format: UnsafeMutablePointer<AVFormatContext>,
        parameters: UnsafePointer<AVCodecParameters>,
        secondsPerTick: Double
    ) -> VideoInfo {
        func rate(_ value: AVRational) -> Double? {
            value.num > 0 && value.den > 0 ? Double(value.num) / Double(value.den) : nil
        }
        let duration: Double? = {
            let ticks = stream.pointee.duration
            if ticks != FFmpegError.noTimestamp, ticks > 0, secondsPerTick > 0 { return Double(ticks) * secondsPerTick }
            let micro = format.pointee.duration
            if micro != FFmpegError.noTimestamp, micro > 0 { return Double(micro) / Double(AV_TIME_BASE) }
            return nil
        }()
        let declaredCount = stream.pointee.nb_frames
        var frameRate =
            rate(stream.pointee.avg_frame_rate) ?? rate(stream.pointee.r_frame_rate)
            ?? rate(av_guess_frame_rate(format, stream, nil))
        if frameRate == nil, declaredCount > 0, let duration, duration > 0 {
            frameRate = Double(declaredCount) / duration
        }
        let frameCount: Int? = {
            if declaredCount > 0 { return Int(declaredCount) }
            // Guarded: a damaged header can claim a duration whose frame count overflows an Int.
            if let duration, let frameRate, duration * frameRate < 1e12 {
                return Int((duration * frameRate).rounded())
            }
            return nil
        }()
        var rotation = 0
        var sideDataSize: Int = 0
        if let matrix = av_stream_get_side_data(stream, AV_PKT_DATA_DISPLAYMATRIX, &sideDataSize) {
            rotation = DisplayMatrix.clockwiseRotation(UnsafeRawBufferPointer(start: matrix, count: sideDataSize))
        }
        return VideoInfo(
            width: Int(parameters.pointee.width), height: Int(parameters.pointee.height),
            frameRate: frameRate ?? 0, frameCount: frameCount, duration: duration,
            codec: codecName(parameters), rotation: rotation)
    }
}
