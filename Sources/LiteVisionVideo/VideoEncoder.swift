import LiteVisionSystem
import CFFmpeg
import LiteVisionImaging

/// Writes a video file from RGB images: H.264 (libx264) in an MP4 by default, 4:2:0.
///
/// ```swift
/// let encoder = try VideoEncoder(path: "annotated.mp4", width: 640, height: 480, frameRate: 30)
/// for image in images { try encoder.append(image) }
/// try encoder.finish()
/// ```
///
/// The video is written to a hidden temporary file next to `path` and renamed to `path` only by a successful
/// ``finish()``. If anything fails, or the encoder is released without ``finish()`` (an error thrown by the
/// caller, a cancelled job), the temporary file is deleted: there is never a half-written file at `path`.
/// A ``fragmented`` video is the exception: it appears at `path` with its first frame and keeps, whatever
/// happens later, the fragments written (it plays up to its last complete fragment).
///
/// An encoder is used from one thread at a time (it is not `Sendable`).
package final class VideoEncoder {
    /// The file that ``finish()`` creates (or replaces).
    package let path: String
    /// The size of the images appended, in pixels (the video itself is one pixel wider or taller when this is
    /// odd; see ``init(path:width:height:frameRate:codec:fragmented:)``).
    package let width: Int, height: Int
    /// Frames per second.
    package let frameRate: Double
    /// The FFmpeg encoder in use: `libx264` or `mpeg4`.
    package let codecName: String
    /// How many images have been appended.
    package private(set) var frameCount = 0

    /// Whether the file is fragmented MP4 that appears at ``path`` with its first frame and grows from there.
    package let fragmented: Bool

    /// The FFmpeg state; `nil` once finished or failed (which also deleted the temporary file if needed).
    private var resources: EncoderResources?
    private var failure: VideoError?
    private var lastPresentationTime: Int64?

    /// Starts a new video.
    ///
    /// - Parameters:
    ///   - path: Where the finished video goes; its extension picks the container (`.mp4`, `.mov`, `.mkv`...),
    ///     MP4 when FFmpeg does not know it. The directory must exist and be writable.
    ///   - width: Frame width in pixels. 4:2:0 video has even sizes: an odd width makes a video one pixel wider,
    ///     whose last column repeats the images' last one.
    ///   - height: Frame height in pixels; an odd height is padded by one row the same way.
    ///   - frameRate: Frames per second, in (0, 1000].
    ///   - codec: Which encoder to use; H.264 when available by default.
    ///   - fragmented: Write fragmented MP4 that appears at `path` with the first frame and grows as frames come
    ///     (for a live stream: a killed process leaves a playable file); otherwise the file appears whole at
    ///     ``finish()``.
    /// - Throws: ``VideoError/invalidArgument(_:)`` for a bad size or frame rate, ``VideoError/encoder(_:)``
    ///   when the encoder or the file cannot be created.
    package init(
        path: String, width: Int, height: Int, frameRate: Double,
        codec: VideoCodecChoice = .automatic, fragmented: Bool = false
    ) throws(VideoError) {
        let (resources, codecName) = try EncoderSetup.open(
            path: path, width: width, height: height,
            frameRate: frameRate, codecChoice: codec, fragmented: fragmented)
        self.fragmented = fragmented
        self.path = path
        self.width = width
        self.height = height
        self.frameRate = frameRate
        self.codecName = codecName
        self.resources = resources
    }

    /// Encodes one more frame.
    ///
    /// - Parameters:
    ///   - image: ``PixelFormat/rgb8``, ``PixelFormat/rgba8``, ``PixelFormat/bgra8`` or ``PixelFormat/gray8``
    ///     pixels of exactly ``width`` x ``height`` (alpha is ignored).
    ///   - timestamp: The frame's time in seconds from the start, for a source that drops frames (the video then
    ///     keeps the source's pace); `nil` (the default) places it one frame interval after the last.
    /// - Throws: ``VideoError/invalidArgument(_:)`` for an image of the wrong size (nothing is written, the
    ///   encoder stays usable); ``VideoError/encoder(_:)`` when encoding or writing fails, after which the
    ///   encoder is closed and its temporary file deleted.
    package func append(_ image: ImageBuffer, at timestamp: Double? = nil) throws(VideoError) {
        let resources = try usableResources()
        guard image.width == width, image.height == height else {
            throw .invalidArgument(
                "an image of \(image.width)x\(image.height) was appended to a "
                    + "\(width)x\(height) video")
        }
        let needed = image.bytesPerRow * (image.height - 1) + image.width * image.format.bytesPerPixel
        guard image.bytesPerRow >= image.width * image.format.bytesPerPixel, image.pixels.count >= needed else {
            throw .invalidArgument("the image holds \(image.pixels.count) bytes, \(needed) are needed")
        }
        try failing { () throws(VideoError) in
            try FrameWriter.convert(image, into: resources)
            guard let codec = resources.codec, let frame = resources.frame else { throw .encoder("closed") }
            frame.pointee.pts = presentationTime(of: timestamp)
            frame.pointee.quality = codec.pointee.global_quality
            let sent = avcodec_send_frame(codec, frame)
            guard sent >= 0 else {
                throw .encoder("the encoder refused frame \(frameCount) (\(FFmpegError.message(sent)))")
            }
            try FrameWriter.writePackets(resources)
            if fragmented, frameCount == 0 {
                do throws(SystemError) {
                    try resources.file.publish()
                } catch {
                    throw .encoder("cannot move the video to '\(path)' (\(error.reason))")
                }
            }
        }
        frameCount += 1
    }

    /// Flushes the encoder, completes the file and moves it to ``path``.
    ///
    /// - Throws: ``VideoError/encoder(_:)`` when nothing was appended, or writing or renaming fails; the
    ///   temporary file is deleted and nothing appears at ``path``.
    package func finish() throws(VideoError) {
        let resources = try usableResources()
        try failing { () throws(VideoError) in
            guard frameCount > 0 else { throw .encoder("no frames were appended, so no video was written") }
            guard let codec = resources.codec, let format = resources.format else { throw .encoder("closed") }
            _ = avcodec_send_frame(codec, nil)
            try FrameWriter.writePackets(resources)
            let trailer = av_write_trailer(format)
            guard trailer >= 0 else { throw .encoder("cannot complete the file (\(FFmpegError.message(trailer)))") }
            let closed = resources.closeFile()
            guard closed >= 0 else { throw .encoder("cannot write the file (\(FFmpegError.message(closed)))") }
            do throws(SystemError) {
                try resources.file.commit()
            } catch {
                throw .encoder("cannot move the video to '\(path)' (\(error.reason))")
            }
        }
        self.resources = nil
        failure = .encoder("the video was already finished")
    }

    /// The open resources, or the error that closed them.
    /// The frame's time in frame intervals: from `timestamp` when given (frames dropped from a live source leave
    /// their time, so the video plays at the source's pace), else the next interval; always after the last frame.
    private func presentationTime(of timestamp: Double?) -> Int64 {
        var pts = Int64(frameCount)
        if let timestamp, timestamp.isFinite, timestamp >= 0, timestamp * frameRate < 1e15 {
            pts = Int64((timestamp * frameRate).rounded())
        }
        if let last = lastPresentationTime, pts <= last { pts = last + 1 }
        lastPresentationTime = pts
        return pts
    }

    private func usableResources() throws(VideoError) -> EncoderResources {
        if let resources { return resources }
        throw failure ?? .encoder("the encoder is closed")
    }

    /// Runs `body`; on failure closes the encoder (deleting the temporary file) before rethrowing.
    private func failing(_ body: () throws(VideoError) -> Void) throws(VideoError) {
        do {
            try body()
        } catch {
            // A fragmented file already at its path keeps what was written: it plays up to its last fragment.
            resources = nil
            failure = .encoder("the encoder was closed by an earlier error: \(error)")
            throw error
        }
    }
}

/// An encoder holds FFmpeg state that must not be used from two threads at once.
@available(*, unavailable)
extension VideoEncoder: Sendable {}
