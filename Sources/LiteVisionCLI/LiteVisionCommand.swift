import ArgumentParser
import LiteVisionCommandSupport

/// The `litevision` command: ML Kit's on-device vision features from the command line.
@main
struct LiteVisionCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "litevision",
        abstract: "On-device vision with TFLite models: ML Kit's features for Linux.",
        subcommands: [
            LabelCommand.self, DetectCommand.self, TrackCommand.self, EvalCommand.self, ModelsCommand.self,
            RegistryCommand.self,
        ]
    )

    /// Runs the command; help or lines of standard output that could not be written make it end with status 1.
    static func main() { mainCheckingOutput() }
}
