import Foundation

/// Videos the tests make with Debian's `ffmpeg` command (installed by `scripts/setup.sh --dev`): FFmpeg's moving
/// test pattern at any size, so that sizes the shared clips do not have (odd, tiny, 240p) are decoded for real.
public enum GeneratedVideo {
    /// Writes `frames` frames of FFmpeg's `testsrc` pattern at `width` x `height` into `folder` and returns the
    /// path. Even sizes are H.264 in MP4 (what cameras and phones write); odd sizes, which H.264 4:2:0 cannot
    /// hold, are MPEG-4 Part 2 in AVI, as old cameras wrote them.
    public static func make(width: Int, height: Int, frames: Int = 5, in folder: URL) throws -> String {
        let even = width % 2 == 0 && height % 2 == 0
        let path = folder.appendingPathComponent("testsrc-\(width)x\(height).\(even ? "mp4" : "avi")").path
        let codec = even ? ["-c:v", "libx264", "-preset", "ultrafast"] : ["-c:v", "mpeg4"]
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try ffmpeg())
        process.arguments =
            ["-nostdin", "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc=size=\(width)x\(height):rate=10"]
            + ["-frames:v", "\(frames)", "-pix_fmt", "yuv420p"] + codec + [path]
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        let message = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw GeneratedVideoError(
                description:
                    "ffmpeg could not make a \(width)x\(height) video: \(String(decoding: message, as: UTF8.self))")
        }
        return path
    }

    /// The `ffmpeg` command, or a setup error saying how to install it.
    static func ffmpeg() throws -> String {
        for candidate in ["/usr/bin/ffmpeg", "/usr/local/bin/ffmpeg"]
        where FileManager.default.isExecutableFile(atPath: candidate) {
            return candidate
        }
        throw GeneratedVideoError(
            description: "the ffmpeg command is missing: run scripts/setup.sh --dev (it installs Debian's ffmpeg)")
    }
}

/// A video could not be made (a setup error, never a reason to skip).
public struct GeneratedVideoError: Error, CustomStringConvertible {
    public let description: String
}
