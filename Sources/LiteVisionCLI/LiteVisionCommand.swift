import ArgumentParser

/// The `litevision` command: ML Kit's on-device vision features from the command line.
@main
struct LiteVisionCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "litevision",
        abstract: "On-device vision with TFLite models: ML Kit's features for Linux.",
        subcommands: [
            LabelCommand.self, DetectCommand.self, TrackCommand.self, ModelsCommand.self, RegistryCommand.self,
        ]
    )
}
