import LiteVisionVideo

/// Frames from a file, either every frame (offline) or at real-time pace with late frames dropped (live).
enum FrameStream {
    case offline(VideoDecoder)
    case live(LiveFrameSource)

    var info: VideoInfo {
        switch self {
        case .offline(let decoder): decoder.info
        case .live(let source): source.info
        }
    }

    func next() throws -> VideoFrame? {
        switch self {
        case .offline(let decoder): return try decoder.nextFrame()
        case .live(let source):
            if let frame = source.next() { return frame }
            if let error = source.error { throw error }
            return nil
        }
    }
}
