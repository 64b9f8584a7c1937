import ArgumentParser
import LiteVisionCommandSupport

/// `litevision track`: object detection and tracking through a video, run by `litevision-media` (FFmpeg). The
/// arguments are checked here first, so a mistake is reported without starting the other program. With
/// `--detections` (a detection file: no video, no model) it runs here.
struct TrackCommand: ParsableCommand {
    static let configuration = TrackArguments.configuration

    @OptionGroup var arguments: TrackArguments

    func run() throws {
        if arguments.detections != nil { return try arguments.runDetections() }
        try SiblingProgram.execForwardingArguments(to: SiblingProgram.media)
    }
}
