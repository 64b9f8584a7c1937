import ArgumentParser
import LiteVisionCommandSupport

/// `litevision track`: object detection and tracking through a video, run by `litevision-media` (FFmpeg). The
/// arguments are checked here first, so a mistake is reported without starting the other program.
struct TrackCommand: ParsableCommand {
    static let configuration = TrackArguments.configuration

    @OptionGroup var arguments: TrackArguments

    func run() throws {
        try SiblingProgram.execForwardingArguments(to: SiblingProgram.media)
    }
}
