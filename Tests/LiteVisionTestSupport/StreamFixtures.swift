import Foundation

/// Fixtures the streaming servers serve, made from a shared clip by Debian's `ffmpeg` into a temporary folder:
/// longer clips, HLS segments and JPEG frames. Nothing is written next to the shared data.
public enum StreamFixtures {
    /// The shared clip the servers stream unless told otherwise: `video/cup.mp4` (H.264 640x480, 26.8 fps, 217
    /// frames, 8.1 s).
    public static var defaultClip: String { TestData.path("video/cup.mp4") }

    /// Writes `clip` played `times` times in a row into `folder` as one MP4 (FFmpeg's concat demuxer, `-c copy`,
    /// video only) and returns its path: timestamps keep increasing across the joins, so a 8 s clip becomes a
    /// 24 s stream with `times: 3`. The clip must be an MP4 or MOV whose video is H.264.
    public static func concatenated(_ clip: String, times: Int, in folder: URL) throws -> String {
        precondition(times >= 1, "times must be at least 1")
        let name = URL(fileURLWithPath: clip).deletingPathExtension().lastPathComponent
        let list = folder.appendingPathComponent("\(name)-x\(times).txt")
        let quoted = "file '" + clip.replacingOccurrences(of: "'", with: #"'\''"#) + "'\n"
        try String(repeating: quoted, count: times).write(to: list, atomically: true, encoding: .utf8)
        let path = folder.appendingPathComponent("\(name)-x\(times).mp4").path
        try ffmpeg(["-f", "concat", "-safe", "0", "-i", list.path, "-map", "0:v:0", "-c", "copy"] + [path])
        return path
    }

    /// Cuts `clip` into HLS: `index.m3u8` (a VOD playlist) and MPEG-TS segments `seg000.ts`… of about `seconds`
    /// each (cut at key frames; the video is copied, the audio left out), in `folder`. Returns the playlist's path.
    public static func hlsSegments(of clip: String, seconds: Double = 1, in folder: URL) throws -> String {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let playlist = folder.appendingPathComponent("index.m3u8").path
        try ffmpeg(
            ["-i", clip, "-map", "0:v:0", "-c:v", "copy", "-f", "hls", "-hls_time", "\(seconds)"]
                + ["-hls_list_size", "0", "-hls_playlist_type", "vod"]
                + ["-hls_segment_filename", folder.appendingPathComponent("seg%03d.ts").path, playlist])
        return playlist
    }

    /// Decodes `clip` into JPEG files `00001.jpg`… at `framesPerSecond` in `folder` and returns how many there are.
    public static func jpegFrames(of clip: String, framesPerSecond: Int, in folder: URL) throws -> Int {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try ffmpeg(
            ["-i", clip, "-vf", "fps=\(framesPerSecond)", "-q:v", "5"]
                + [folder.appendingPathComponent("%05d.jpg").path])
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        return names.filter { $0.hasSuffix(".jpg") }.count
    }

    /// Rewrites the H.264 video of `clip` (an MP4 or MOV) as an MPEG-TS file in `folder`, copied, with the
    /// parameter sets (SPS, PPS) repeated before every key frame, so that a receiver that joins a broadcast of it
    /// late can decode from the next key frame. Returns its path.
    public static func mpegTS(of clip: String, in folder: URL) throws -> String {
        let name = URL(fileURLWithPath: clip).deletingPathExtension().lastPathComponent
        let path = folder.appendingPathComponent("\(name).ts").path
        try ffmpeg(
            ["-i", clip, "-map", "0:v:0", "-c:v", "copy", "-bsf:v", "h264_mp4toannexb,dump_extra=freq=keyframe"]
                + ["-f", "mpegts", path])
        return path
    }

    /// Rewrites the H.264 video of `clip` (an MP4 or MOV) as a bare H.264 stream (Annex B, no container: FFmpeg's
    /// `h264` format), copied, in `folder`. Returns its path (`NAME.h264`).
    public static func bareH264(of clip: String, in folder: URL) throws -> String {
        let name = URL(fileURLWithPath: clip).deletingPathExtension().lastPathComponent
        let path = folder.appendingPathComponent("\(name).h264").path
        try ffmpeg(["-i", clip, "-map", "0:v:0", "-c:v", "copy", "-bsf:v", "h264_mp4toannexb", "-f", "h264", path])
        return path
    }

    /// ffmpeg's output arguments that encode a video as a live raw H.264 stream: an Annex B stream, no container and
    /// no timestamps; x264 at its fastest, a key frame with its parameter sets every 10 frames, so that a receiver
    /// may join at any time. Its parameter sets declare 4 frames a second whatever the clip's rate, as a camera's
    /// may be wrong, so that a receiver timing frames by the stream's word is told apart from one timing them by
    /// arrival. (A higher rate would make FFmpeg's probe, 5 s of the stream's time, read seconds of frames ahead
    /// before the first one is given.)
    public static let rawH264Encoding =
        ["-c:v", "libx264", "-preset", "ultrafast", "-tune", "zerolatency", "-g", "10"]
        + ["-x264-params", "repeat-headers=1", "-bsf:v", "h264_metadata=tick_rate=8", "-f", "h264"]

    /// Runs `ffmpeg -nostdin -v error -y ARGUMENTS`, throwing its error output when it fails.
    static func ffmpeg(_ arguments: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try GeneratedVideo.ffmpeg())
        process.arguments = ["-nostdin", "-v", "error", "-y"] + arguments
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let message = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        try? errors.fileHandleForReading.close()
        guard process.terminationStatus == 0 else {
            throw LoopbackServerError(
                "ffmpeg \(arguments.joined(separator: " ")) failed: \(String(decoding: message, as: UTF8.self))")
        }
    }
}
