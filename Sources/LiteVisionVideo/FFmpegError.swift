import CFFmpeg

/// FFmpeg's error codes that the C headers define with function-like macros, which Swift cannot import.
enum FFmpegError {
    /// `FFERRTAG(a, b, c, d)`: the negated four-character tag.
    private static func tag(_ a: UInt8, _ b: UInt8, _ c: UInt8, _ d: UInt8) -> Int32 {
        -Int32(bitPattern: UInt32(a) | UInt32(b) << 8 | UInt32(c) << 16 | UInt32(d) << 24)
    }

    /// `AVERROR_EOF`: the end of the stream (or of the decoder's output after a flush).
    static let endOfFile = tag(0x45, 0x4F, 0x46, 0x20)  // "EOF "
    /// `AVERROR(EAGAIN)`: the call must be repeated after the other side of the codec API has been served.
    static let tryAgain = -Int32(EAGAIN)

    /// `AVERROR_EXIT`: the interrupt callback ended a blocking call.
    static let exit = tag(0x45, 0x58, 0x49, 0x54)  // "EXIT"
    /// `AVERROR_INVALIDDATA`: the input is not what the demuxer expects.
    static let invalidData = tag(0x49, 0x4E, 0x44, 0x41)  // "INDA"
    /// `AVERROR_HTTP_UNAUTHORIZED` (401; RTSP's too).
    static let httpUnauthorized = tag(0xF8, 0x34, 0x30, 0x31)  // "\xF8401"
    /// `AVERROR_HTTP_FORBIDDEN` (403).
    static let httpForbidden = tag(0xF8, 0x34, 0x30, 0x33)
    /// `AVERROR_HTTP_NOT_FOUND` (404).
    static let httpNotFound = tag(0xF8, 0x34, 0x30, 0x34)

    /// `AV_NOPTS_VALUE`: "no timestamp".
    static let noTimestamp = Int64.min

    /// FFmpeg's explanation of an error code (`av_strerror`), e.g. "Invalid data found when processing input".
    static func message(_ code: Int32) -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        let found = buffer.withUnsafeMutableBufferPointer { av_strerror(code, $0.baseAddress, $0.count) }
        if found < 0 { return "FFmpeg error \(code)" }
        return buffer.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
    }
}
