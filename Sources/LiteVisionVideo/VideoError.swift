/// Why a video could not be read or written.
///
/// Every case carries enough context (the file or URL, the frame, FFmpeg's own explanation) to be shown to a user
/// as it is: ``description`` is a complete sentence that says what went wrong and, where it helps, what to do.
/// A URL is always shown with its password replaced by `***`.
public enum VideoError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file cannot be opened at all: it is missing, empty, a directory or not readable.
    /// `reason` says which (for an empty file it contains the word "empty").
    case fileNotReadable(path: String, reason: String)
    /// The file is there but FFmpeg does not recognise it as a video: the container could not be parsed,
    /// its streams could not be probed, or it has no video stream.
    case notAVideo(path: String, reason: String)
    /// The video stream uses a codec this FFmpeg build has no decoder for; `codec` is FFmpeg's name for it.
    case unsupportedCodec(path: String, codec: String)
    /// Decoding failed part-way: `frame` good frames were produced before the damage made decoding stop.
    case corrupt(path: String, frame: Int, reason: String)
    /// The video stream declares frames of more pixels than the limit (100 megapixels by default, the limit photos
    /// have): refused from the declared size, before any frame is decoded.
    case tooLarge(path: String, width: Int, height: Int, limit: Int)
    /// Writing a video failed (the encoder, the container or the file system refused).
    case encoder(String)
    /// An argument was out of range: a size, a frame rate, a playback speed or an image that does not match.
    case invalidArgument(String)
    /// The system refused a resource: memory, or a thread.
    case systemResource(String)
    /// The location is not one a ``VideoSource`` reads: an unknown URL scheme, an empty location, a URL without
    /// a host.
    case unsupportedLocation(location: String, reason: String)
    /// A video device (V4L2) could not be opened: missing, not a video device, busy, or refusing the settings.
    case deviceUnavailable(path: String, reason: String)
    /// The first connection to a network source failed; `cause` says why.
    case connectionFailed(location: String, cause: ConnectionFailure)
    /// A network source that was playing was lost and reconnecting gave up after `seconds` seconds (0 when
    /// reconnecting is off); `reason` is why the last connection ended or the last attempt failed.
    case streamLost(location: String, frames: Int, seconds: Double, reason: String)

    /// Why a connection to a network source failed.
    public enum ConnectionFailure: Sendable, Equatable, CustomStringConvertible {
        /// Nothing listens at the address (connection refused).
        case refused
        /// The host name could not be resolved.
        case hostNotFound(String)
        /// No answer within the time allowed (``VideoSource/Options/connectTimeout``).
        case timedOut(seconds: Double)
        /// The server wants credentials, or refused the ones given (401).
        case unauthorized
        /// The server refuses access (403).
        case forbidden
        /// The server has nothing at that path (404, or an RTSP mount that does not exist).
        case notFound
        /// The server answered, but not with a video stream FFmpeg can read (or with a stream referring to
        /// protocols or files the source may not open).
        case notAVideoStream(String)
        /// Any other failure, in FFmpeg's words.
        case other(String)

        /// A phrase for the user.
        public var description: String {
            switch self {
            case .refused: "the connection was refused (nothing listens at that address and port)"
            case .hostNotFound(let host): "the host name '\(host)' could not be resolved (DNS)"
            case .timedOut(let seconds): "no answer within \(formatted(seconds)) s (the server does not respond)"
            case .unauthorized: "the server requires valid credentials (401 Unauthorized): check the user and password"
            case .forbidden: "the server refuses access (403 Forbidden)"
            case .notFound: "the server has no stream at that path (404 Not Found)"
            case .notAVideoStream(let reason):
                "the server's answer is not a video stream LiteVision can read: \(reason)"
            case .other(let reason): reason
            }
        }
    }

    /// A sentence for the user.
    public var description: String {
        switch self {
        case let .fileNotReadable(path, reason):
            "Cannot read the video file '\(path)': \(reason)."
        case let .notAVideo(path, reason):
            "'\(path)' is not a video that FFmpeg can read: \(reason)."
        case let .unsupportedCodec(path, codec):
            "'\(path)' uses the '\(codec)' video codec, which this FFmpeg build cannot decode; "
                + "convert it to a common codec such as H.264 first."
        case let .corrupt(path, frame, reason):
            "'\(path)' is damaged: decoding stopped after \(frame) good frame\(frame == 1 ? "" : "s") (\(reason))."
        case let .tooLarge(path, width, height, limit):
            "'\(path)' has frames too large to decode: its video stream declares \(width)x\(height) = "
                + "\(width * height) pixels per frame, more than the limit of \(limit) pixels. Downscale the video first."
        case let .encoder(message):
            "Writing the video failed: \(message)."
        case let .invalidArgument(message):
            "Invalid argument: \(message)."
        case let .systemResource(message):
            "Out of system resources: \(message)."
        case let .unsupportedLocation(location, reason):
            "Cannot read the video source '\(location)': \(reason)."
        case let .deviceUnavailable(path, reason):
            "Cannot open the video device '\(path)': \(reason)."
        case let .connectionFailed(location, cause):
            "Cannot connect to '\(location)': \(cause)."
        case let .streamLost(location, frames, seconds, reason) where seconds > 0:
            "Lost the stream '\(location)' after \(frames) frame\(frames == 1 ? "" : "s"): reconnecting gave up "
                + "after \(formatted(seconds)) s (\(reason))."
        case let .streamLost(location, frames, _, reason):
            "Lost the stream '\(location)' after \(frames) frame\(frames == 1 ? "" : "s") (\(reason)); "
                + "reconnecting is off."
        }
    }
}

/// A number of seconds for a message: whole numbers without decimals, others with one.
func formatted(_ seconds: Double) -> String {
    guard seconds.isFinite else { return "\(seconds)" }
    if seconds == seconds.rounded() && abs(seconds) < 1e9 { return String(Int(seconds)) }
    return String((seconds * 10).rounded() / 10)
}
