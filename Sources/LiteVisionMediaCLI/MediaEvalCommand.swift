import ArgumentParser
import LiteVisionCommandSupport

/// `litevision eval`, as `litevision-media` runs it: the evaluations that draw (`--plot`).
struct MediaEvalCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "eval", abstract: "Evaluations that draw their charts with Cairo (--plot).",
        subcommands: [MediaEvalClassifyCommand.self, MediaEvalDetectCommand.self])
}
