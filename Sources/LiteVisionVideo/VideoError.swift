/// Why a video could not be read or written.
///
/// Every case carries enough context (the file, the frame, FFmpeg's own explanation) to be shown to a user
/// as it is: ``description`` is a complete sentence that says what went wrong and, where it helps, what to do.
package enum VideoError: Error, Sendable, Equatable, CustomStringConvertible {
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
    /// The video stream declares frames of more pixels than the limit (``VideoDecoder/maxPixelCount``, 100 megapixels
    /// by default, the limit photos have): refused from the declared size, before any frame is decoded.
    case tooLarge(path: String, width: Int, height: Int, limit: Int)
    /// Writing a video failed (the encoder, the container or the file system refused).
    case encoder(String)
    /// An argument was out of range: a size, a frame rate, a playback speed or an image that does not match.
    case invalidArgument(String)
    /// The system refused a resource: memory, or a thread for a ``LiveFrameSource``.
    case systemResource(String)

    /// A sentence for the user.
    package var description: String {
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
        }
    }
}
