import ArgumentParser
import LiteVisionCommandSupport

/// `litevision-media`: the commands of `litevision` that decode video (FFmpeg) or draw (Cairo). `litevision`
/// hands `track`, `detect --annotate` and `eval … --plot` to this program, so that its other commands start without loading those
/// libraries. Run directly, it takes the same arguments (`litevision-media track VIDEO ...`).
@main
struct MediaCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "litevision",
        abstract:
            "Video and drawing commands of litevision (run by `litevision track`, `detect --annotate`, `eval --plot`).",
        subcommands: [MediaDetectCommand.self, MediaTrackCommand.self, MediaEvalCommand.self]
    )

    /// Runs the command; help or lines of standard output that could not be written make it end with status 1.
    static func main() { mainCheckingOutput() }
}
