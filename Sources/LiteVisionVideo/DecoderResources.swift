import CFFmpeg

/// The FFmpeg objects behind one ``VideoDecoder``, freed together when it goes away. A separate object so
/// that whatever a failing initialiser already allocated is released too.
final class DecoderResources {
    var format: UnsafeMutablePointer<AVFormatContext>?
    var codec: UnsafeMutablePointer<AVCodecContext>?
    var packet: UnsafeMutablePointer<AVPacket>?
    var frame: UnsafeMutablePointer<AVFrame>?
    /// The interrupt FFmpeg's callback points at: released after the container (stored properties are released
    /// after `deinit` has run).
    var interrupt: InputInterrupt?

    deinit {
        av_packet_free(&packet)
        av_frame_free(&frame)
        avcodec_free_context(&codec)  // also joins the decoder's threads
        avformat_close_input(&format)
    }
}
