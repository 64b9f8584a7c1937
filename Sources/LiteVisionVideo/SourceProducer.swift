import LiteVisionGeometry
import LiteVisionSystem

/// The work of a ``VideoSource``'s thread: decode, pace a file played as a camera, hand frames to the slot, and
/// bring a lost network stream back. The only code that touches the decoder once the source has started.
final class SourceProducer {
    /// Longest wait between two frames of a paced file, in seconds of video, whatever the timestamps say.
    static let maximumGap = 5.0
    /// Longest wait between two reconnection attempts.
    static let maximumBackoff = 4.0
    /// The name of the thread (seen in `top -H`, gdb and `/proc/PID/task/*/comm`).
    static let threadName = "VideoSource"

    private let location: SourceLocation
    private let options: VideoSource.Options
    private let settings: OpenSettings
    private let delivery: VideoSource.Delivery
    private let slot: FrameSlot
    private let interrupt: InputInterrupt
    private var decoder: VideoDecoder?
    private let orientation: ImageOrientation
    private let frameStep: Double

    /// Frames decoded so far, over every connection: the next frame's index.
    private var decoded = 0
    /// Counters of the connections before the current one.
    private var earlierPackets = 0, earlierDamaged = 0
    /// The last frame's timestamp as delivered, and when it was decoded.
    private var lastTimestamp: Double?
    private var lastFrameTime = MonotonicClock.now()
    /// Added to the current connection's timestamps (set at its first frame).
    private var timestampOffset = 0.0
    private var offsetPending = false

    init(
        location: SourceLocation, options: VideoSource.Options, settings: OpenSettings,
        delivery: VideoSource.Delivery, slot: FrameSlot, interrupt: InputInterrupt, decoder: VideoDecoder
    ) {
        self.location = location
        self.options = options
        self.settings = settings
        self.delivery = delivery
        self.slot = slot
        self.interrupt = interrupt
        self.decoder = decoder
        orientation = decoder.info.orientation
        frameStep = decoder.info.frameRate > 0 ? 1 / decoder.info.frameRate : 1.0 / 30
    }

    /// Runs until the frames end or the source is stopped; the decoder is released before it returns.
    func run() {
        Self.nameThread()
        defer { decoder = nil }
        let paced = location.kind == .file && delivery == .latest
        var due = MonotonicClock.now()
        var previousFileTimestamp: Double?
        while !slot.isCancelled {
            switch readNext() {
            case nil: return
            case .frame(let decodedFrame):
                if paced {
                    if let previous = previousFileTimestamp {
                        due += min(max(decodedFrame.timestamp - previous, 0), Self.maximumGap) / options.playbackSpeed
                    }
                    previousFileTimestamp = decodedFrame.timestamp
                    guard slot.sleep(until: due) else { return }
                }
                // A paced file's frame arrives when its time comes, as a camera's would.
                guard slot.publish(frame(from: decodedFrame, arrived: paced ? .now : decodedFrame.receivedAt)) else {
                    return
                }
            case .ended(let failure, let reason, let finite):
                // The connection is closed by now (readNext released it).
                guard !interrupt.isStopped, !slot.isCancelled else { return }
                switch location.kind {
                case .file: return slot.end(failure: failure)
                case .device:
                    return slot.end(
                        failure: failure.map { _ in
                            .deviceUnavailable(path: location.displayName, reason: "the device stopped: \(reason)")
                        })
                case .network:
                    // A stream of known length (HLS, a file over HTTP) that ends, ends; a camera's never does.
                    if failure == nil, finite { return slot.end(failure: nil) }
                    guard options.reconnectTimeout > 0 else {
                        return slot.end(
                            failure: .streamLost(
                                location: location.displayName, frames: decoded, seconds: 0, reason: reason))
                    }
                    decoder = reconnect(after: reason)
                }
            }
        }
    }

    /// What reading the current connection gave.
    private enum Step {
        case frame(DecodedFrame)
        /// The connection ended (cleanly when `failure` is nil); `finite` when it is HTTP and its length was known
        /// (a duration, or a file on a web server).
        case ended(failure: VideoError?, reason: String, finite: Bool)
    }

    /// The next frame of the current connection; when it ends, its counters are kept and the decoder released (the
    /// connection closed) before returning. `nil` when there is no connection.
    private func readNext() -> Step? {
        guard let current = decoder else { return nil }
        var failure: VideoError?
        do {
            if let decodedFrame = try current.nextFrame() {
                count(current, delivering: 1)
                return .frame(decodedFrame)
            }
        } catch {
            failure = error
        }
        count(current, delivering: 0)
        let why = reason(failure, current)
        let finite =
            (location.scheme == "http" || location.scheme == "https")
            && (current.info.duration != nil || current.isServedFile)
        earlierPackets += current.packetsRead
        earlierDamaged += current.damagedPackets
        decoder = nil
        return .ended(failure: failure, reason: why, finite: finite)
    }

    /// Names the calling thread ``threadName`` (`pthread_setname_np` is not visible to Swift here).
    private static func nameThread() {
        let descriptor = open("/proc/thread-self/comm", O_WRONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        _ = threadName.withCString { write(descriptor, $0, strlen($0)) }
        close(descriptor)
    }

    /// The public frame of a decoded one: its index over every connection, its timestamp continuing across them.
    private func frame(from decodedFrame: DecodedFrame, arrived: ContinuousClock.Instant) -> VideoFrame {
        let now = MonotonicClock.now()
        if offsetPending, let last = lastTimestamp {
            // The first frame of a new connection follows the last one by the time the stream was away.
            timestampOffset = last + max(frameStep, now - lastFrameTime) - decodedFrame.timestamp
            offsetPending = false
        }
        let timestamp = decodedFrame.timestamp + timestampOffset
        lastTimestamp = timestamp
        lastFrameTime = now
        defer { decoded += 1 }
        return VideoFrame(
            pixels: decodedFrame.image, orientation: orientation, index: decoded, timestamp: timestamp,
            receivedAt: arrived)
    }

    /// Copies the decoder's counters into the slot's statistics, `delivering` frames about to be handed over.
    private func count(_ current: VideoDecoder, delivering: Int) {
        let packets = earlierPackets + current.packetsRead, damaged = earlierDamaged + current.damagedPackets
        let frames = decoded + delivering
        slot.updateCounts {
            $0.received = packets
            $0.damaged = damaged
            $0.decoded = frames
        }
    }

    /// Why the connection of `current` ended, for events and the final error.
    private func reason(_ failure: VideoError?, _ current: VideoDecoder) -> String {
        if interrupt.lastCause == .deadline { return "no data for \(formatted(options.stallTimeout)) s" }
        if let code = current.lastReadError, code != FFmpegError.endOfFile {
            return "the connection failed: \(location.scrubbed(FFmpegError.message(code)))"
        }
        if case .corrupt(_, _, let reason)? = failure { return location.scrubbed(reason) }
        return "the server ended the stream"
    }

    /// A new connection to the source, trying with backoff until ``VideoSource/Options/reconnectTimeout``; `nil`
    /// when the source was stopped or reconnecting gave up (the slot is then ended with the error).
    private func reconnect(after reason: String) -> VideoDecoder? {
        options.eventHandler?(.disconnected(reason: reason))
        let start = MonotonicClock.now()
        var lastReason = reason, delay = 0.5, attempt = 0
        while true {
            guard slot.sleep(until: MonotonicClock.now() + delay) else { return nil }
            attempt += 1
            do throws(VideoError) {
                let fresh = try VideoDecoder(location, settings: settings)
                fresh.readTimeout = options.stallTimeout
                slot.updateCounts { $0.reconnects += 1 }
                offsetPending = true
                options.eventHandler?(.reconnected(attempts: attempt, downtime: MonotonicClock.now() - lastFrameTime))
                return fresh
            } catch {
                guard !interrupt.isStopped else { return nil }
                lastReason = Self.phrase(error)
            }
            let elapsed = MonotonicClock.now() - start, remaining = options.reconnectTimeout - elapsed
            guard remaining > 0 else {
                slot.end(
                    failure: .streamLost(
                        location: location.displayName, frames: decoded, seconds: elapsed, reason: lastReason))
                return nil
            }
            delay = min(delay * 2, Self.maximumBackoff, remaining)
            options.eventHandler?(.reconnectFailed(attempt: attempt, reason: lastReason, retryIn: delay))
        }
    }

    /// A failed attempt's error as a phrase (the cause, without the location).
    private static func phrase(_ error: VideoError) -> String {
        if case .connectionFailed(_, let cause) = error { return cause.description }
        return error.description
    }
}
