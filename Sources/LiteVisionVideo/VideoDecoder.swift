import CFFmpeg
import LiteVisionImaging
import LiteVisionSystem

/// Reads the frames of a video file one after the other, as RGB images.
///
/// ```swift
/// let decoder = try VideoDecoder(path: "clip.mp4")
/// do {
///     while let frame = try decoder.nextFrame() {
///         // frame.image is RGB, frame.timestamp in seconds
///     }
/// } catch {
///     print(error)   // damaged: "decoding stopped after 118 good frames (...)"; the frames before came out
/// }
/// ```
///
/// Damaged input never crashes or hangs the decoder. By default decoding is strict, as image decoding is: the
/// first damage — a packet FFmpeg flags as corrupt or cannot decode, a frame it had to conceal errors in, a read
/// error of the container, or a file that ends before the frame count its container declares (a cut-off copy)
/// — ends the video: the frames decoded before it are returned, then ``nextFrame()`` throws
/// ``VideoError/corrupt(path:frame:reason:)`` once, saying after how many good frames it stopped and why; after
/// that it returns `nil`. ``damage`` tells the same.
///
/// With ``allowsDamagedData`` decoding is lenient, as video players are: damaged packets are skipped and
/// counted in ``damagedPackets`` while decoding resumes (FFmpeg conceals what it can); only more than
/// ``maximumConsecutiveDamagedPackets`` failures in a row, or a read error, end it with
/// ``VideoError/corrupt(path:frame:reason:)``. ``damage`` still records the first damage, truncation included.
///
/// A decoder is a sequential reader holding FFmpeg state: use it from one thread at a time (it is not
/// `Sendable`). To share frames across threads, send the ``DecodedFrame`` values, which are. ``VideoSource`` is
/// the public reader built on it (files, devices and network streams, on a thread of its own).
package final class VideoDecoder {
    /// The file being read.
    package let path: String
    /// What the file says about its video stream.
    package let info: VideoInfo
    /// The largest `width * height` of a frame accepted: the stream's declared size is checked when it is
    /// opened, and FFmpeg refuses larger frames met later.
    package let maxPixelCount: Int
    /// Whether damage is skipped (lenient) instead of ending the video (strict, the default). Set it before
    /// the first ``nextFrame()``.
    package var allowsDamagedData = false
    /// How many damaged packets (and undecodable frames) were skipped so far. Non-zero means the video is
    /// damaged and some frames were lost or shown with concealed errors: worth a warning to the user.
    package private(set) var damagedPackets = 0
    /// How many frames ``nextFrame()`` has returned so far (also the ``DecodedFrame/index`` of the next one).
    package private(set) var framesDecoded = 0
    /// The first damage found so far, as a ``VideoError/corrupt(path:frame:reason:)`` saying at which frame and
    /// why; `nil` while the video is intact. In strict mode it is the error ``nextFrame()`` throws; in lenient mode
    /// it is where the first skipped or concealed damage was, or that the file ended before its declared frame
    /// count.
    package private(set) var damage: VideoError?
    /// How many packets in a row may fail to decode before lenient decoding gives up with
    /// ``VideoError/corrupt(path:frame:reason:)``. 100 by default.
    package var maximumConsecutiveDamagedPackets = 100

    private let resources: DecoderResources
    private let streamIndex: Int32
    private let secondsPerTick: Double
    private let startTicks: Int64
    private let declaredFrameCount: Int?
    /// Whether frames are timed by when they arrive (see ``OpenedStream/timedByArrival``).
    private let timedByArrival: Bool
    /// Whether the input is a file on a web server (see ``OpenedStream/isServedFile``): it ends where the file does.
    let isServedFile: Bool
    /// When the first frame's last packet was read, for ``timedByArrival``.
    private var firstArrival: ContinuousClock.Instant?
    private let converter = RGBConverter()

    private enum Phase { case reading, draining, finished }
    private var phase = Phase.reading
    /// The damage that ends the video, thrown once the decoder has given back the frames decoded before it.
    private var pendingDamage: String?
    /// FFmpeg's code of the read that ended the input (`AVERROR_EOF` at the end), `nil` while reading.
    package private(set) var lastReadError: Int32?
    /// How many packets of the video stream were read (received) so far.
    package private(set) var packetsRead = 0
    private var consecutiveDamaged = 0
    private var consecutiveRetries = 0
    private var lastTimestamp: Double?
    /// When the last packet of the video stream was read.
    private var lastArrival = ContinuousClock.now
    /// Seconds a read of a live source may wait for data before the interrupt ends it (the stall timeout).
    var readTimeout = Double.infinity

    /// Opens a video file and its decoder.
    ///
    /// - Parameters:
    ///   - path: The file to read. Any container and codec this FFmpeg build can decode.
    ///   - threadCount: Decoder threads; 0 lets FFmpeg choose from the number of cores. 2 by default.
    ///   - maxPixelCount: The largest frame accepted, in pixels; by default the limit photos have
    ///     (`ImageDecoder.defaultMaxPixelCount`, 100 megapixels). Must be positive.
    /// - Throws: ``VideoError/fileNotReadable(path:reason:)`` for a missing, empty or unreadable file,
    ///   ``VideoError/notAVideo(path:reason:)`` when FFmpeg cannot parse it or it has no video stream,
    ///   ``VideoError/unsupportedCodec(path:codec:)`` when this FFmpeg build has no decoder for it,
    ///   ``VideoError/tooLarge(path:width:height:limit:)`` when its frames are declared larger than `maxPixelCount`.
    package convenience init(
        path: String, threadCount: Int = 2, maxPixelCount: Int = ImageDecoder.defaultMaxPixelCount
    ) throws(VideoError) {
        precondition(maxPixelCount > 0, "VideoDecoder: maxPixelCount must be positive")
        let opened = try StreamOpener.open(path: path, threadCount: threadCount, maxPixelCount: maxPixelCount)
        self.init(opened, name: path, maxPixelCount: maxPixelCount)
    }

    /// Opens any source; `name` is how messages call it.
    convenience init(_ location: SourceLocation, settings: OpenSettings) throws(VideoError) {
        let opened = try StreamOpener.open(location, settings: settings)
        self.init(opened, name: location.displayName, maxPixelCount: settings.maxPixelCount)
        if location.kind != .file { allowsDamagedData = true }
    }

    private init(_ opened: OpenedStream, name: String, maxPixelCount: Int) {
        self.path = name
        self.maxPixelCount = maxPixelCount
        info = opened.info
        resources = opened.resources
        streamIndex = opened.streamIndex
        secondsPerTick = opened.secondsPerTick
        startTicks = opened.startTicks
        declaredFrameCount = opened.declaredFrameCount
        timedByArrival = opened.timedByArrival
        isServedFile = opened.isServedFile
    }

    /// The next frame in presentation order, or `nil` once the video has ended.
    ///
    /// - Throws: ``VideoError/corrupt(path:frame:reason:)`` when the video is damaged (strict mode) or the
    ///   damage is beyond repair (lenient mode; see the type's documentation); later calls return `nil`.
    package func nextFrame() throws(VideoError) -> DecodedFrame? {
        guard let codec = resources.codec, let frame = resources.frame else { return nil }
        while phase != .finished {
            let received = avcodec_receive_frame(codec, frame)
            if received == 0 {
                defer { av_frame_unref(frame) }
                if let decoded = try deliver(frame) { return decoded }
                continue
            }
            if received == FFmpegError.endOfFile || (received == FFmpegError.tryAgain && phase == .draining) {
                try finish()
                return nil
            }
            if received != FFmpegError.tryAgain {
                try recordDamage(FFmpegError.message(received))
                continue
            }
            try feedDecoder()
        }
        return nil
    }

    /// Calls `body` with every remaining frame, in order.
    ///
    /// - Throws: A ``VideoError`` from decoding, or whatever `body` throws (which stops the loop).
    package func forEachFrame(_ body: (DecodedFrame) throws -> Void) throws {
        while let frame = try nextFrame() { try body(frame) }
    }

    /// Reads the next packet of the video stream and hands it to the decoder; at the end of the file (or at
    /// a read error) puts the decoder into draining mode.
    private func feedDecoder() throws(VideoError) {
        guard let format = resources.format, let packet = resources.packet else {
            phase = .finished
            return
        }
        resources.interrupt?.arm(seconds: readTimeout)
        let read = av_read_frame(format, packet)
        if read == FFmpegError.tryAgain {
            // A live input with no data yet: wait a little, until the stall timeout.
            if readTimeout.isFinite, (ContinuousClock.now - lastArrival) < .seconds(readTimeout) {
                usleep(2000)
                return
            }
            if !readTimeout.isFinite, consecutiveRetries < 100 {
                consecutiveRetries += 1
                return
            }
        }
        consecutiveRetries = 0
        guard read >= 0 else {
            lastReadError = read
            guard read == FFmpegError.endOfFile else {
                return stop("the file is truncated or its container is damaged: \(FFmpegError.message(read))")
            }
            drain()
            return
        }
        defer { av_packet_unref(packet) }
        guard packet.pointee.stream_index == streamIndex else { return }
        packetsRead += 1
        lastArrival = .now
        if packet.pointee.flags & AV_PKT_FLAG_CORRUPT != 0 {
            let reason =
                "packet \(packetsRead - 1) of the video stream is incomplete or corrupt (the file may be cut short)"
            guard allowsDamagedData else { return stop(reason) }
            noteDamage(reason, frame: packetsRead - 1)  // FFmpeg decodes what there is and conceals the rest
        }
        guard let codec = resources.codec else { return }
        let sent = avcodec_send_packet(codec, packet)
        // EAGAIN cannot happen here: the decoder's output was emptied first.
        if sent < 0 {
            let reason =
                "packet \(packetsRead - 1) of the video stream could not be decoded: \(FFmpegError.message(sent))"
            guard allowsDamagedData else { return stop(reason) }
            try recordDamage(reason, frame: packetsRead - 1)
        }
    }

    /// Strict decoding met damaged input: no more packets; the frames the decoder holds from the packets before
    /// come out, then the damage is thrown.
    private func stop(_ reason: String) {
        damagedPackets += 1
        pendingDamage = reason
        drain()
    }

    /// Signals the end of the input to the decoder, which then gives back the frames it holds.
    private func drain() {
        if let codec = resources.codec { _ = avcodec_send_packet(codec, nil) }
        phase = .draining
    }

    /// Converts a decoded frame; a frame that cannot be converted counts as damage and is skipped (`nil`), as
    /// is, in strict mode, a frame in which FFmpeg concealed errors.
    private func deliver(_ frame: UnsafeMutablePointer<AVFrame>) throws(VideoError) -> DecodedFrame? {
        if frame.pointee.decode_error_flags != 0 || frame.pointee.flags & AV_FRAME_FLAG_CORRUPT != 0 {
            let reason = "FFmpeg had to conceal errors in frame \(framesDecoded) (its data is damaged)"
            if !allowsDamagedData { try fail(reason) }
            noteDamage(reason)
        }
        let image: ImageBuffer
        switch converter.convert(frame) {
        case let .success(converted): image = converted
        case let .failure(failure):
            try recordDamage(failure.reason)
            return nil
        }
        consecutiveDamaged = 0
        let timestamp = timestamp(of: frame)
        lastTimestamp = timestamp
        defer { framesDecoded += 1 }
        return DecodedFrame(image: image, index: framesDecoded, timestamp: timestamp, receivedAt: lastArrival)
    }

    /// The frame's presentation time in seconds from the start of the stream; for an input timed by arrival, the
    /// time from the first frame's arrival to this one's.
    private func timestamp(of frame: UnsafeMutablePointer<AVFrame>) -> Double {
        if timedByArrival {
            let first = firstArrival ?? lastArrival
            firstArrival = first
            let elapsed = (lastArrival - first).components
            return Double(elapsed.seconds) + Double(elapsed.attoseconds) / 1e18
        }
        var ticks = frame.pointee.best_effort_timestamp
        if ticks == FFmpegError.noTimestamp { ticks = frame.pointee.pts }
        if ticks != FFmpegError.noTimestamp, secondsPerTick > 0 {
            return (Double(ticks) - Double(startTicks)) * secondsPerTick
        }
        let step = info.frameRate > 0 ? 1 / info.frameRate : 0
        if let lastTimestamp { return lastTimestamp + step }
        return Double(framesDecoded) * step
    }

    /// Remembers the first damage, for ``damage``: at `frame`, by default the next frame to be returned. (Damage
    /// to a packet is given the packet's index: with frame threading the decoder holds a few frames back.)
    private func noteDamage(_ reason: String, frame: Int? = nil) {
        if damage == nil { damage = .corrupt(path: path, frame: frame ?? framesDecoded, reason: reason) }
    }

    /// Ends the video now with `reason`, after the frames already returned.
    private func fail(_ reason: String) throws(VideoError) -> Never {
        noteDamage(reason)
        phase = .finished
        throw .corrupt(path: path, frame: framesDecoded, reason: reason)
    }

    /// Counts one damaged packet or frame: ends the video in strict mode; in lenient mode skips it, giving up
    /// when too many fail in a row.
    private func recordDamage(_ reason: String, frame: Int? = nil) throws(VideoError) {
        damagedPackets += 1
        consecutiveDamaged += 1
        guard allowsDamagedData else { try fail(reason) }
        noteDamage(reason, frame: frame)
        if consecutiveDamaged > maximumConsecutiveDamagedPackets {
            try fail("\(consecutiveDamaged) packets in a row could not be decoded, the last one: \(reason)")
        }
    }

    /// The decoder has given back everything: the end, the damage that stopped the input, or a file that ended
    /// before the frame count its container declares.
    private func finish() throws(VideoError) {
        phase = .finished
        if let reason = pendingDamage {
            pendingDamage = nil
            noteDamage(reason)
            throw .corrupt(path: path, frame: framesDecoded, reason: reason)
        }
        if damage == nil, let declared = declaredFrameCount, declared - packetsRead > Self.countTolerance {
            let reason =
                "the file holds only \(packetsRead) of the \(declared) frames its container declares "
                + "(it was cut short, or frames were lost to damage)"
            noteDamage(reason)
            if !allowsDamagedData { throw .corrupt(path: path, frame: framesDecoded, reason: reason) }
        }
    }

    /// How many frames fewer than declared a file may have without being called damaged: one, for writers that
    /// count a frame they do not store. (MP4 and AVI counts are exact; FFmpeg reads no count from most other
    /// containers, and then there is no check.)
    static let countTolerance = 1
}

/// A decoder holds FFmpeg state that must not be used from two threads at once.
@available(*, unavailable)
extension VideoDecoder: Sendable {}
