#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CFFmpeg

/// The FFmpeg objects and the temporary file behind one ``VideoEncoder``. Releasing it frees everything and,
/// unless the file was committed (renamed to its final name), deletes the temporary file: so a failed, abandoned
/// or half-initialised encoder never leaves a partial video behind.
final class EncoderResources {
    let temporaryPath: String
    var format: UnsafeMutablePointer<AVFormatContext>?
    var codec: UnsafeMutablePointer<AVCodecContext>?
    var stream: UnsafeMutablePointer<AVStream>?
    var frame: UnsafeMutablePointer<AVFrame>?
    var packet: UnsafeMutablePointer<AVPacket>?
    /// The swscale context for the pixel format of the images appended last.
    var scaler: OpaquePointer?
    /// Whether the temporary file has been opened (it must then be closed).
    var fileOpen = false
    /// Set once the temporary file has been renamed to the final path.
    var committed = false

    init(temporaryPath: String) { self.temporaryPath = temporaryPath }

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
        avcodec_free_context(&codec)
        sws_freeContext(scaler)
        avformat_free_context(format)
        if !committed { unlink(temporaryPath) }
    }
}
