import Testing

/// What each shared video holds, measured by hand with FFmpeg 5.1's command-line tools (not used by the tests):
/// `ffprobe -count_frames -show_entries stream=codec_name,width,height,avg_frame_rate,nb_read_frames`, and the
/// channel means of frame 0 from `ffmpeg -frames:v 1 -f rawvideo -pix_fmt rgb24` (BT.601, limited range).
struct ReferenceVideo: Sendable, CustomTestStringConvertible {
    let name: String
    let width: Int
    let height: Int
    let codec: String
    let frameRate: Double
    /// Frames decoded by `ffprobe -count_frames` (equal to the container's count for these files).
    let frames: Int
    let duration: Double
    /// Mean red, green and blue of frame 0.
    let firstFrameMeans: (red: Double, green: Double, blue: Double)

    var testDescription: String { name }

    static let cup = ReferenceVideo(
        name: "cup.mp4", width: 640, height: 480, codec: "h264", frameRate: 26.777,
        frames: 217, duration: 8.104, firstFrameMeans: (184.27, 176.78, 166.46))
    static let pedestrians = ReferenceVideo(
        name: "vtest.avi", width: 768, height: 576, codec: "msmpeg4v3",
        frameRate: 10, frames: 795, duration: 79.5,
        firstFrameMeans: (120.69, 125.62, 89.20))
    static let bottles = ReferenceVideo(
        name: "bottle-detection.mp4", width: 640, height: 360, codec: "h264",
        frameRate: 179.0 / 6, frames: 1189, duration: 39.855,
        firstFrameMeans: (152.35, 147.55, 140.25))
    static let traffic = ReferenceVideo(
        name: "traffic_frames.mp4", width: 960, height: 540, codec: "h264",
        frameRate: 30, frames: 20, duration: 0.667,
        firstFrameMeans: (109.53, 113.70, 115.98))

    static let all = [cup, pedestrians, bottles, traffic]
}
