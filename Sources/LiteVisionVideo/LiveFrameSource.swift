import LiteVisionSystem

/// Plays a video file as if it came from a camera: frames become available at their real-time pace, and
/// frames that arrive while the consumer is still busy are dropped, keeping only the latest one (ML Kit's
/// `alwaysDiscardsLateVideoFrames`). Use it to run a detector in stream mode at realistic frame rates.
///
/// ```swift
/// let source = try LiveFrameSource(path: "clip.mp4")
/// while let frame = source.next() {
///     detect(frame.image)                      // slow work makes the source drop frames
/// }
/// print("dropped \(source.droppedFrames) frames")
/// ```
///
/// A producer thread decodes the file and releases each frame when its timestamp (divided by `speed`) is due,
/// counted from the moment the source was created; frames are not held back for a consumer that has not
/// started yet. ``VideoFrame/index`` keeps the position in the file, so gaps show where frames were dropped.
/// Pauses in the video longer than 5 seconds are shortened to 5 seconds, and backward timestamps are due at
/// once. Releasing the source (or ``stop()``) stops and joins the thread.
///
/// Thread-safe: ``next()`` may be called from any thread; each frame goes to exactly one caller.
package final class LiveFrameSource: Sendable {
    /// What the file says about its video stream.
    package let info: VideoInfo
    /// Playback speed: 1 is real time, 2 twice as fast.
    package let speed: Double

    private let slot: FrameSlot
    private let thread: pthread_t

    /// Opens a video file and starts playing it.
    ///
    /// - Parameters:
    ///   - path: The video file.
    ///   - speed: How much faster than real time frames are released; finite and greater than 0.
    /// - Throws: The errors of ``VideoDecoder/init(path:threadCount:)``; ``VideoError/invalidArgument(_:)``
    ///   for a bad speed; ``VideoError/systemResource(_:)`` when no thread can be started.
    package init(path: String, speed: Double = 1) throws(VideoError) {
        guard speed.isFinite, speed > 0 else {
            throw .invalidArgument("the playback speed \(speed) must be a finite number greater than 0")
        }
        let decoder = try VideoDecoder(path: path)
        info = decoder.info
        self.speed = speed
        slot = FrameSlot()
        // The decoder is handed over to the producer thread, the only one that touches it from now on.
        let job = Unmanaged.passRetained(ProducerJob(decoder: decoder, slot: slot, speed: speed)).toOpaque()
        var thread = pthread_t()
        let created = pthread_create(
            &thread, nil,
            { context in
                guard let context else { return nil }
                Unmanaged<ProducerJob>.fromOpaque(context).takeRetainedValue().run()
                return nil
            }, job)
        guard created == 0 else {
            Unmanaged<ProducerJob>.fromOpaque(job).release()
            throw .systemResource("cannot start the playback thread (\(errorDescription(created)))")
        }
        self.thread = thread
    }

    deinit {
        slot.cancel()
        pthread_join(thread, nil)
    }

    /// The latest frame that is due, waiting until one is; `nil` at the end of the video (check ``error``),
    /// or after ``stop()``.
    package func next() -> VideoFrame? { slot.take() }

    /// How many frames were dropped because the consumer had not taken the previous one yet.
    package var droppedFrames: Int { slot.droppedFrames }

    /// How many damaged packets the decoder skipped so far (see ``VideoDecoder/damagedPackets``).
    package var damagedPackets: Int { slot.damagedPackets }

    /// The decoding error that ended the video early, if any (``next()`` then returned `nil`).
    package var error: VideoError? { slot.endingError }

    /// Stops playback: the producer thread ends, and ``next()`` returns `nil` from now on.
    package func stop() { slot.cancel() }
}

/// The producer thread's work: decode, wait until each frame is due, publish it.
private final class ProducerJob {
    /// Longest wait between two frames, in seconds of video, whatever the timestamps say.
    static let maximumGap = 5.0

    let decoder: VideoDecoder
    let slot: FrameSlot
    let speed: Double

    init(decoder: VideoDecoder, slot: FrameSlot, speed: Double) {
        self.decoder = decoder
        self.slot = slot
        self.speed = speed
    }

    func run() {
        var due = MonotonicClock.now()
        var previousTimestamp: Double?
        while !slot.isCancelled {
            let frame: VideoFrame?
            do {
                frame = try decoder.nextFrame()
            } catch {
                slot.end(failure: error, damagedPackets: decoder.damagedPackets)
                return
            }
            guard let frame else {
                slot.end(failure: nil, damagedPackets: decoder.damagedPackets)
                return
            }
            if let previousTimestamp {
                due += min(max(frame.timestamp - previousTimestamp, 0), Self.maximumGap) / speed
            }
            previousTimestamp = frame.timestamp
            guard slot.sleep(until: due) else { return }
            slot.publish(frame, damagedPackets: decoder.damagedPackets)
        }
    }
}
