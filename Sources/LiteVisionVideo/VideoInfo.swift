import LiteVisionImaging
import LiteVisionGeometry

/// What a video says about its video stream, read when it is opened (a file, a device or a network stream).
public struct VideoInfo: Sendable, Equatable {
    /// Width of the coded frames in pixels (before any ``rotation``).
    public var width: Int
    /// Height of the coded frames in pixels (before any ``rotation``).
    public var height: Int
    /// Frames per second: the stream's average rate, else its base rate; 0 when the file states neither.
    public var frameRate: Double
    /// How many frames the container says the stream has, or an estimate from the duration and frame rate;
    /// `nil` when it gives no hint. Only an estimate: count decoded frames when the exact number matters.
    public var frameCount: Int?
    /// Length of the video stream in seconds, `nil` when unknown.
    public var duration: Double?
    /// FFmpeg's name of the codec, e.g. `h264`, `msmpeg4v3`, `mpeg4`.
    public var codec: String
    /// Degrees (0, 90, 180 or 270) by which the frames must be turned clockwise to be shown upright, from the
    /// container's display matrix (phones record portrait video as rotated landscape frames). Decoded frames
    /// are not rotated: pass ``orientation`` along with them to the vision APIs instead.
    public var rotation: Int

    /// The ``rotation`` as the orientation of each decoded frame's pixels (`.right` for 90°).
    public var orientation: ImageOrientation {
        switch rotation {
        case 90: .right
        case 180: .down
        case 270: .left
        default: .up
        }
    }

    /// Describes a video stream; the decoder fills this in, tests and callers may build their own.
    public init(
        width: Int, height: Int, frameRate: Double, frameCount: Int?, duration: Double?, codec: String,
        rotation: Int = 0
    ) {
        self.width = width
        self.height = height
        self.frameRate = frameRate
        self.frameCount = frameCount
        self.duration = duration
        self.codec = codec
        self.rotation = rotation
    }
}
