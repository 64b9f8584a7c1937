extension VideoSource {
    /// What kind of source a location names.
    public enum Kind: Sendable, Equatable {
        /// A video file.
        case file
        /// A V4L2 video device, such as `/dev/video0` (a USB or CSI camera).
        case device
        /// A network stream: `rtsp`, `rtsps`, `http`, `https` (MJPEG, HLS, MPEG-TS), `udp`, `rtp` or `tcp`.
        case network
    }

    /// How frames reach a consumer that is slower than the source.
    public enum Delivery: Sendable, Equatable {
        /// Only the newest frame is kept: frames that arrive while the consumer is busy replace the one waiting,
        /// and count as dropped (ML Kit's `alwaysDiscardsLateVideoFrames`). Results stay current; the default
        /// for devices and network streams. A file is played at its real pace (``Options/playbackSpeed``), as a
        /// camera would deliver it.
        case latest
        /// Every frame, in order: the source waits for the consumer (back-pressure). The default for files; for
        /// a live source, a slow consumer falls behind the live picture.
        case every
    }

    /// How RTSP carries the video.
    public enum RTSPTransport: Sendable, Equatable {
        /// Interleaved in the RTSP connection (the default): passes firewalls and NAT, and loses no packets.
        case tcp
        /// RTP over UDP: what some cameras require; packets can be lost on a busy network.
        case udp
    }

    /// The settings asked of a V4L2 device. Each `nil` leaves the device's current setting; a setting the device
    /// does not support makes opening fail with ``VideoError/deviceUnavailable(path:reason:)``.
    /// `v4l2-ctl --list-formats-ext -d /dev/video0` (Debian's `v4l-utils`) lists what a camera offers.
    public struct DeviceSettings: Sendable, Equatable {
        /// The frame size, e.g. 1280 x 720.
        public var width: Int?
        /// The frame size, e.g. 1280 x 720.
        public var height: Int?
        /// Frames per second, e.g. 30.
        public var frameRate: Double?
        /// The device's pixel format by FFmpeg's name: `mjpeg` (compressed, for high sizes and rates over USB 2),
        /// `yuyv422`, `nv12`, ... Whatever it is, frames are converted to RGB once, as they are decoded.
        public var pixelFormat: String?

        /// The device's current settings.
        public init(width: Int? = nil, height: Int? = nil, frameRate: Double? = nil, pixelFormat: String? = nil) {
            self.width = width
            self.height = height
            self.frameRate = frameRate
            self.pixelFormat = pixelFormat
        }
    }

    /// How a ``VideoSource`` reads, delivers and recovers. The defaults suit a camera on a local network.
    public struct Options: Sendable {
        /// How frames reach a slow consumer; `nil` (the default) means ``Delivery/latest`` for devices and network
        /// streams and ``Delivery/every`` for files.
        public var delivery: Delivery?
        /// Seconds the first connection (and each reconnection attempt) may take, from connecting to the first
        /// decodable picture. 10 by default.
        public var connectTimeout: Double = 10
        /// Seconds without any data from a playing network source or device before it counts as stalled and is
        /// reconnected. 10 by default.
        public var stallTimeout: Double = 10
        /// Seconds a lost network source keeps trying to reconnect (with backoff: 0.5 s, 1 s, 2 s, then every 4 s
        /// between attempts) before the frames end with ``VideoError/streamLost(location:frames:seconds:reason:)``.
        /// 60 by default; `.infinity` never gives up; 0 never reconnects (the frames end when the stream does).
        /// A network stream that ends counts as lost too: cameras do not end.
        public var reconnectTimeout: Double = 60
        /// How RTSP carries the video: ``RTSPTransport/tcp`` by default.
        public var rtspTransport: RTSPTransport = .tcp
        /// The settings asked of a V4L2 device.
        public var device = DeviceSettings()
        /// The largest frame accepted, in pixels: 100 megapixels by default, the limit photos have. A stream
        /// declaring larger frames is refused before any is decoded.
        public var maxPixelCount = 100_000_000
        /// How much faster than real time a file is played with ``Delivery/latest``: 1 (the default) is real time.
        public var playbackSpeed: Double = 1
        /// Called on the source's thread when a network source loses its connection, fails a reconnection
        /// attempt or reconnects. Keep it quick: the source waits for it. Capture the source weakly, if at all:
        /// a handler holding it keeps it alive (and reading) until ``VideoSource/stop()`` is called.
        public var eventHandler: (@Sendable (Event) -> Void)?

        /// The defaults.
        public init() {}
    }

    /// What happened to a network source's connection (see ``Options/eventHandler``).
    public enum Event: Sendable, Equatable, CustomStringConvertible {
        /// The stream stopped: the connection dropped, the server ended it, or no data came for
        /// ``Options/stallTimeout`` seconds. Reconnecting starts.
        case disconnected(reason: String)
        /// Reconnection attempt `attempt` (from 1) failed; the next is in `retryIn` seconds.
        case reconnectFailed(attempt: Int, reason: String, retryIn: Double)
        /// The stream is back after `attempts` attempts and `downtime` seconds without frames.
        case reconnected(attempts: Int, downtime: Double)

        /// A phrase for a log line.
        public var description: String {
            switch self {
            case .disconnected(let reason): "stream lost (\(reason)); reconnecting"
            case let .reconnectFailed(attempt, reason, retryIn):
                "reconnection attempt \(attempt) failed (\(reason)); next in \(formatted(retryIn)) s"
            case let .reconnected(attempts, downtime):
                "reconnected after \(attempts) attempt\(attempts == 1 ? "" : "s") (\(formatted(downtime)) s without frames)"
            }
        }
    }

    /// How many frames a source has read, decoded and dropped so far.
    public struct Statistics: Sendable, Equatable {
        /// Packets of the video stream received (for most codecs, one per frame).
        public var received = 0
        /// Frames decoded.
        public var decoded = 0
        /// Frames decoded but never delivered: replaced by a newer one while the consumer was busy
        /// (``Delivery/latest``).
        public var dropped = 0
        /// Damaged packets skipped (a live stream's lost packets; FFmpeg conceals what it can).
        public var damaged = 0
        /// Times the source reconnected.
        public var reconnects = 0

        /// No frames yet.
        public init() {}
    }
}
