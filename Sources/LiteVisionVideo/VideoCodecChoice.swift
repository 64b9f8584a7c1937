import CFFmpeg

/// Which encoder a ``VideoEncoder`` uses.
package enum VideoCodecChoice: Sendable, Equatable, CustomStringConvertible {
    /// H.264 through libx264 when this FFmpeg build has it (Debian's does), else MPEG-4 Part 2.
    case automatic
    /// H.264 through libx264 (fails if the build lacks it): small files that every player reads.
    case h264
    /// MPEG-4 Part 2 (FFmpeg's own `mpeg4` encoder, always present): larger files, plays almost everywhere.
    case mpeg4

    /// The name used in messages.
    package var description: String {
        switch self {
        case .automatic: "automatic"
        case .h264: "H.264 (libx264)"
        case .mpeg4: "MPEG-4 Part 2"
        }
    }

    /// The FFmpeg encoder for this choice, or `nil` when the build has none.
    func findEncoder() -> UnsafePointer<AVCodec>? {
        switch self {
        case .automatic: avcodec_find_encoder_by_name("libx264") ?? avcodec_find_encoder(AV_CODEC_ID_MPEG4)
        case .h264: avcodec_find_encoder_by_name("libx264")
        case .mpeg4: avcodec_find_encoder(AV_CODEC_ID_MPEG4)
        }
    }
}
