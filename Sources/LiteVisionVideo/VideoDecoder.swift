import CFFmpeg
import LiteVisionImaging

/// Reads the frames of a video file one after the other, as RGB images.
///
/// ```swift
/// let decoder = try VideoDecoder(path: "clip.mp4")
/// while let frame = try decoder.nextFrame() {
///     // frame.image is RGB, frame.timestamp in seconds
/// }
/// if decoder.damagedPackets > 0 { print("warning: \(decoder.damagedPackets) damaged packets were skipped") }
/// ```
///
/// Damaged input never crashes or hangs the decoder. Frames before the damage come out normally; damaged
/// packets are skipped and counted in ``damagedPackets`` while decoding resumes (FFmpeg conceals what it can);
/// if more than ``maximumConsecutiveDamagedPackets`` fail in a row, or the file cannot be read to its end
/// (it is cut short or its container is broken), the frames already decoded are returned and then
/// ``nextFrame()`` throws ``VideoError/corrupt(path:frame:reason:)`` once; after that it returns `nil`.
/// Many containers simply end where a truncated file stops (an MP4 cut short yields its complete frames, then
/// `nil`): compare ``framesDecoded`` with ``VideoInfo/frameCount`` to notice a video that ended early.
///
/// A decoder is a sequential reader holding FFmpeg state: use it from one thread at a time (it is not
/// `Sendable`). To share frames across threads, send the ``VideoFrame`` values, which are.
package final class VideoDecoder {
    /// The file being read.
    package let path: String
    /// What the file says about its video stream.
    package let info: VideoInfo
    /// How many damaged packets (and undecodable frames) were skipped so far. Non-zero means the video is
    /// damaged and some frames were lost or shown with concealed errors: worth a warning to the user.
    package private(set) var damagedPackets = 0
    /// How many frames ``nextFrame()`` has returned so far (also the ``VideoFrame/index`` of the next one).
    package private(set) var framesDecoded = 0
    /// How many packets in a row may fail to decode before decoding gives up with
    /// ``VideoError/corrupt(path:frame:reason:)``. 100 by default.
    package var maximumConsecutiveDamagedPackets = 100

    private let resources: DecoderResources
    private let streamIndex: Int32
    private let secondsPerTick: Double
    private let startTicks: Int64
    private let converter = RGBConverter()

    private enum Phase { case reading, draining, finished }
    private var phase = Phase.reading
    /// A read error of the container, reported as damage once the decoder has given back what it holds.
    private var pendingReadError: Int32?
    private var consecutiveDamaged = 0
    private var consecutiveRetries = 0
    private var lastTimestamp: Double?

    /// Opens a video file and its decoder.
    ///
    /// - Parameters:
    ///   - path: The file to read. Any container and codec this FFmpeg build can decode.
    ///   - threadCount: Decoder threads; 0 lets FFmpeg choose from the number of cores. 2 by default.
    /// - Throws: ``VideoError/fileNotReadable(path:reason:)`` for a missing, empty or unreadable file,
    ///   ``VideoError/notAVideo(path:reason:)`` when FFmpeg cannot parse it or it has no video stream,
    ///   ``VideoError/unsupportedCodec(path:codec:)`` when this FFmpeg build has no decoder for it.
    package init(path: String, threadCount: Int = 2) throws(VideoError) {
        let opened = try StreamOpener.open(path: path, threadCount: threadCount)
        self.path = path
        info = opened.info
        resources = opened.resources
        streamIndex = opened.streamIndex
        secondsPerTick = opened.secondsPerTick
        startTicks = opened.startTicks
    }

    /// The next frame in presentation order, or `nil` once the video has ended.
    ///
    /// - Throws: ``VideoError/corrupt(path:frame:reason:)`` when the damage is beyond repair (see the type's
    ///   documentation); later calls return `nil`.
    package func nextFrame() throws(VideoError) -> VideoFrame? {
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
    package func forEachFrame(_ body: (VideoFrame) throws -> Void) throws {
        while let frame = try nextFrame() { try body(frame) }
    }

    /// Reads the next packet of the video stream and hands it to the decoder; at the end of the file (or at
    /// a read error) puts the decoder into draining mode.
    private func feedDecoder() throws(VideoError) {
        guard let format = resources.format, let codec = resources.codec, let packet = resources.packet else {
            phase = .finished
            return
        }
        let read = av_read_frame(format, packet)
        if read == FFmpegError.tryAgain, consecutiveRetries < 100 {
            consecutiveRetries += 1
            return
        }
        consecutiveRetries = 0
        guard read >= 0 else {
            if read != FFmpegError.endOfFile { pendingReadError = read }
            _ = avcodec_send_packet(codec, nil)
            phase = .draining
            return
        }
        defer { av_packet_unref(packet) }
        guard packet.pointee.stream_index == streamIndex else { return }
        let sent = avcodec_send_packet(codec, packet)
        // EAGAIN cannot happen here: the decoder's output was emptied first.
        if sent < 0 { try recordDamage(FFmpegError.message(sent)) }
    }

    /// Converts a decoded frame; a frame that cannot be converted counts as damage and is skipped (`nil`).
    private func deliver(_ frame: UnsafeMutablePointer<AVFrame>) throws(VideoError) -> VideoFrame? {
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
        return VideoFrame(image: image, index: framesDecoded, timestamp: timestamp)
    }

    /// The frame's presentation time in seconds from the start of the stream.
    private func timestamp(of frame: UnsafeMutablePointer<AVFrame>) -> Double {
        var ticks = frame.pointee.best_effort_timestamp
        if ticks == FFmpegError.noTimestamp { ticks = frame.pointee.pts }
        if ticks != FFmpegError.noTimestamp, secondsPerTick > 0 {
            return (Double(ticks) - Double(startTicks)) * secondsPerTick
        }
        let step = info.frameRate > 0 ? 1 / info.frameRate : 0
        if let lastTimestamp { return lastTimestamp + step }
        return Double(framesDecoded) * step
    }

    /// Counts one damaged packet or frame; gives up when too many fail in a row.
    private func recordDamage(_ reason: String) throws(VideoError) {
        damagedPackets += 1
        consecutiveDamaged += 1
        if consecutiveDamaged > maximumConsecutiveDamagedPackets {
            phase = .finished
            let summary = "\(consecutiveDamaged) packets in a row could not be decoded, the last one: \(reason)"
            throw .corrupt(path: path, frame: framesDecoded, reason: summary)
        }
    }

    /// The decoder has given back everything: the end, or the damage that cut the file short.
    private func finish() throws(VideoError) {
        phase = .finished
        if let error = pendingReadError {
            pendingReadError = nil
            throw .corrupt(
                path: path, frame: framesDecoded,
                reason: "the file is truncated or its container is damaged: \(FFmpegError.message(error))")
        }
    }
}

/// A decoder holds FFmpeg state that must not be used from two threads at once.
@available(*, unavailable)
extension VideoDecoder: Sendable {}
