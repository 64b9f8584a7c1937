import CFFmpeg
import LiteVisionSystem

/// The FFmpeg objects and the temporary file behind one ``VideoEncoder``. Releasing it frees everything and,
/// unless the file was committed (renamed to its final name), deletes the temporary file: so a failed, abandoned
/// or half-initialised encoder never leaves a partial video behind.
final class EncoderResources {
    /// The temporary file FFmpeg writes and its final name; deleted unless committed.
    let file: AtomicFile
    var temporaryPath: String { file.temporaryPath }
    var format: UnsafeMutablePointer<AVFormatContext>?
    var codec: UnsafeMutablePointer<AVCodecContext>?
    var stream: UnsafeMutablePointer<AVStream>?
    var frame: UnsafeMutablePointer<AVFrame>?
    var packet: UnsafeMutablePointer<AVPacket>?
    /// The appended image copied into a picture FFmpeg allocated, in the image's pixel format (see
    /// `FrameWriter.convert`).
    var staging: UnsafeMutablePointer<AVFrame>?
    /// The swscale context for the pixel format of the images appended last.
    var scaler: OpaquePointer?
    /// Whether the temporary file has been opened (it must then be closed).
    var fileOpen = false

    init(file: AtomicFile) { self.file = file }

    /// Closes the temporary file if it is open; returns FFmpeg's result (0 when nothing was open).
    func closeFile() -> Int32 {
        guard fileOpen, let format else { return 0 }
        fileOpen = false
        return avio_closep(&format.pointee.pb)
    }

    deinit {
        _ = closeFile()
        av_packet_free(&packet)
        av_frame_free(&frame)
        av_frame_free(&staging)
        avcodec_free_context(&codec)
        sws_freeContext(scaler)
        avformat_free_context(format)
        // `file` is released after this, and deletes the temporary file unless it was committed.
    }
}
