import LiteVision
import LiteVisionSystem
import Synchronization

/// A camera, a network stream or a video file, as a sequence of frames: LiteVision's replacement for
/// `AVCaptureSession`.
///
/// ```swift
/// let source = try VideoSource("rtsp://user:password@192.168.1.20:554/stream1")
/// let detector = ObjectDetector.objectDetector(options: ObjectDetectorOptions())   // stream mode: tracking
/// for try await frame in source.frames {
///     for object in try detector.results(in: frame.image, timestamp: frame.timestamp) {
///         print(frame.index, object.trackingID ?? -1, object.frame)
///     }
/// }
/// ```
///
/// The location is one of:
/// - a video file path (anything FFmpeg decodes: MP4/H.264, AVI, MKV, ...);
/// - a V4L2 device path such as `/dev/video0` (a USB or CSI camera; size, frame rate and pixel format in
///   ``Options/device``; not tested on hardware, see the README);
/// - a URL: `rtsp://` and `rtsps://` (IP cameras; over TCP unless ``Options/rtspTransport`` says UDP),
///   `http://` and `https://` (MJPEG, HLS, MPEG-TS), `udp://` and `rtp://` (MPEG-TS or RTP sent to this machine,
///   e.g. `udp://0.0.0.0:5000`), `tcp://`. Other schemes are refused by name.
///
/// Frames come from a thread of the source's own, which opens the input, decodes and converts to RGB. With
/// ``Delivery/latest`` (the default for cameras and network streams) a consumer that is busy gets the newest frame
/// when it asks, never a backlog; with ``Delivery/every`` (the default for files) it gets every frame, and the
/// source waits for it. Read them with ``frames`` (`for try await`) or ``next()`` (blocking); one consumer, or
/// several taking turns (each frame goes to exactly one of them).
///
/// A network source that drops, ends or stalls (no data for ``Options/stallTimeout`` seconds) is reconnected, with
/// backoff, for up to ``Options/reconnectTimeout`` seconds; ``Options/eventHandler`` hears about it, and the frames
/// go on with their ``VideoFrame/index`` and ``VideoFrame/timestamp`` continuing. A video over HTTP(S) whose length
/// is known ends when it ends (a connection dropped before the end is reconnected, and the video starts again): an
/// HLS video (not a live playlist), an MP4, or a bare video file (`.h264`, MJPEG) from a web server that gives its
/// size and takes byte ranges, as nginx serves static files; such a file keeps its own timing, where a camera's
/// bare stream is timed by arrival. A first connection that fails is an error at once
/// (``VideoError/connectionFailed(location:cause:)``), saying why: refused, unknown host, timed out, unauthorized,
/// not a video stream.
///
/// `https://` verifies the server's certificate against the system's trust store; `rtsps://` does not (FFmpeg 5.1's RTSP
/// client never asks its TLS layer to), so use it, and credentials over it, on networks you trust.
///
/// What FFmpeg may open is limited to the protocols of the location's kind: a network URL (or an HLS playlist or a
/// redirect it leads to) can never read a local file, and a file never reaches the network. A password in the URL
/// is never shown: ``location`` and every message show `user:***@`.
///
/// ``stop()`` (or cancelling the task that iterates ``frames``, or releasing the source) ends the frames within a
/// second and joins the thread, closing every connection and descriptor.
public final class VideoSource: Sendable {
    /// The location, as shown to people: a URL's password is replaced by `***`.
    public let location: String
    /// What kind of source the location names.
    public let kind: Kind
    /// How frames reach a slow consumer (the option given, or the default of the kind).
    public let delivery: Delivery
    /// What the source said about its video stream when it was opened (size, frame rate, codec, rotation).
    public let info: VideoInfo

    private let slot: FrameSlot
    private let interrupt: InputInterrupt
    /// The producer thread.
    private let thread: pthread_t
    /// Whether the thread was joined (or detached); held while joining, so that every caller of ``stop()`` returns
    /// only once the thread has ended.
    private let joined = Mutex(false)
    /// Whether a ``VideoPipeline`` owns the frames.
    private let claimed = Atomic(false)

    /// Opens a source and starts reading it.
    ///
    /// - Parameters:
    ///   - location: A file path, a device path (`/dev/video0`) or a URL (see the type's documentation).
    ///   - options: Delivery, timeouts, reconnection, RTSP transport, device settings.
    /// - Throws: ``VideoError``: ``VideoError/unsupportedLocation(location:reason:)`` for an unknown scheme;
    ///   ``VideoError/connectionFailed(location:cause:)`` when a network source cannot be reached or read (within
    ///   ``Options/connectTimeout``); ``VideoError/deviceUnavailable(path:reason:)`` for a missing or unusable
    ///   device; the file errors (``VideoError/fileNotReadable(path:reason:)``, ``VideoError/notAVideo(path:reason:)``,
    ///   ...) for files; ``VideoError/invalidArgument(_:)`` for options out of range.
    public init(_ location: String, options: Options = Options()) throws(VideoError) {
        try Self.check(options)
        let parsed = try SourceLocation(location)
        let interrupt = InputInterrupt()
        let settings = OpenSettings(
            threadCount: parsed.kind == .file ? 2 : 1, maxPixelCount: options.maxPixelCount,
            interrupt: parsed.kind == .file ? nil : interrupt, connectTimeout: options.connectTimeout,
            rtspTransport: options.rtspTransport, device: options.device)
        let decoder = try VideoDecoder(parsed, settings: settings)
        if parsed.kind != .file { decoder.readTimeout = options.stallTimeout }
        self.location = parsed.displayName
        kind = parsed.kind
        delivery = options.delivery ?? (parsed.kind == .file ? .every : .latest)
        info = decoder.info
        self.interrupt = interrupt
        slot = FrameSlot(delivery: delivery)
        let producer = SourceProducer(
            location: parsed, options: options, settings: settings, delivery: delivery, slot: slot,
            interrupt: interrupt, decoder: decoder)
        thread = try Self.start(producer)
    }

    deinit {
        interruptWithoutJoining()
        if pthread_equal(thread, pthread_self()) != 0 {
            // Released on its own thread (an event handler held the last reference): it ends by itself.
            joined.withLock { if !$0 { pthread_detach(thread) } }
        } else {
            join()
        }
    }

    /// `location` as it may be shown: a URL's password, and the values of query parameters such as `password` or
    /// `token`, replaced by `***` (``location`` is already shown so).
    public static func redacted(_ location: String) -> String { SourceLocation.masked(location) }

    /// The kind of source `location` names (without opening it): a URL is a network source, a character device or a
    /// path under `/dev/video` or `/dev/v4l/` a device, anything else a file.
    ///
    /// - Throws: ``VideoError/unsupportedLocation(location:reason:)`` for an unknown scheme or an empty location.
    public static func kind(of location: String) throws(VideoError) -> Kind { try SourceLocation(location).kind }

    /// The next frame, blocking until there is one; `nil` once the source has ended or was stopped.
    ///
    /// - Throws: The ``VideoError`` that ended the source early, once, after the frames before it: a damaged
    ///   file, a device that failed, a network stream lost for good
    ///   (``VideoError/streamLost(location:frames:seconds:reason:)``).
    public func next() throws(VideoError) -> VideoFrame? { try slot.take() }

    /// The frames as an async sequence: `for try await frame in source.frames { ... }`. Cancelling the task that
    /// iterates it stops the source.
    public var frames: Frames { Frames(source: self) }

    /// Counters of the frames received, decoded and dropped so far, and of reconnections.
    public var statistics: Statistics { slot.statistics }

    /// The error that ended the source early, if any (also thrown by ``next()`` and ``frames``).
    public var error: VideoError? { slot.endingError }

    /// Stops reading: blocking FFmpeg calls are interrupted, the thread is joined and the input closed; ``next()``
    /// returns `nil` from now on. Returns within about a second (FFmpeg's network calls check every 100 ms).
    /// Safe to call more than once and from any thread, the source's ``Options/eventHandler`` included.
    public func stop() {
        interruptWithoutJoining()
        // The source's own thread (an event handler) cannot wait for itself: it ends once the handler returns.
        guard pthread_equal(thread, pthread_self()) == 0 else { return }
        join()
    }

    /// Joins the thread once; other callers wait until it has been joined.
    private func join() {
        joined.withLock { done in
            guard !done else { return }
            pthread_join(thread, nil)
            done = true
        }
    }

    /// Stops without waiting for the thread (from a task's cancellation handler); ``stop()`` joins it later.
    func interruptWithoutJoining() {
        interrupt.stop()
        slot.cancel()
    }

    /// Marks the source as a pipeline's; false when it is one's already.
    func claim() -> Bool { claimed.compareExchange(expected: false, desired: true, ordering: .relaxed).exchanged }

    /// Gives the source back (a pipeline that could not be made).
    func unclaim() { claimed.store(false, ordering: .relaxed) }

    /// Takes the waiting frame, if any, without blocking (``VideoPipeline``).
    func poll() -> FrameSlot.Poll { slot.poll() }

    /// Has `observer` called when a frame waits, and when the frames end (``VideoPipeline``).
    func observe(_ observer: @escaping @Sendable () -> Void) { slot.observe(observer) }

    /// Takes the next frame, suspending until there is one (``Frames``' iterator).
    func nextAsync() async throws -> VideoFrame? { try await slot.takeAsync() }

    /// The longest connect or stall timeout accepted: a year.
    static let longestTimeout = 31_536_000.0

    /// Refuses options out of range.
    private static func check(_ options: Options) throws(VideoError) {
        func positive(_ value: Double, _ name: String) throws(VideoError) {
            guard value > 0, !value.isNaN else {
                throw .invalidArgument("\(name) must be greater than 0, got \(value)")
            }
        }
        try positive(options.connectTimeout, "the connect timeout")
        try positive(options.stallTimeout, "the stall timeout")
        for (value, name) in [(options.connectTimeout, "connect"), (options.stallTimeout, "stall")] {
            guard value <= Self.longestTimeout else {
                throw .invalidArgument("the \(name) timeout \(value) s is longer than a year")
            }
        }
        try positive(options.playbackSpeed, "the playback speed")
        guard options.playbackSpeed.isFinite else {
            throw .invalidArgument("the playback speed must be finite, got \(options.playbackSpeed)")
        }
        guard options.reconnectTimeout >= 0 else {
            throw .invalidArgument("the reconnect timeout must be 0 or more, got \(options.reconnectTimeout)")
        }
        guard options.maxPixelCount > 0 else {
            throw .invalidArgument("the pixel limit must be positive, got \(options.maxPixelCount)")
        }
        let device = options.device
        for (value, name) in [(device.width, "width"), (device.height, "height")] {
            if let value, !(1...RGBConverter.maximumDimension).contains(value) {
                throw .invalidArgument("the device \(name) \(value) is out of range")
            }
        }
        if (device.width == nil) != (device.height == nil) {
            throw .invalidArgument("give the device's width and height together")
        }
        if let rate = device.frameRate {
            guard rate.isFinite, rate > 0, rate <= 1000 else {
                throw .invalidArgument("the device frame rate \(rate) is out of range")
            }
        }
        if let format = device.pixelFormat {
            guard !format.isEmpty, format.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") })
            else { throw .invalidArgument("the device pixel format '\(format)' is not a pixel format's name") }
        }
    }

    /// Starts the thread that runs `producer`.
    private static func start(_ producer: sending SourceProducer) throws(VideoError) -> pthread_t {
        guard let thread = DedicatedThread.start({ producer.run() }) else {
            throw .systemResource("cannot start the video source's thread (\(errorDescription(errno)))")
        }
        return thread
    }
}
