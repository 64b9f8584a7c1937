import ArgumentParser
import LiteVisionCommandSupport

/// `litevision eval detect`; with `--plot` it is run by `litevision-media`, which draws with Cairo.
struct EvalDetectCommand: ParsableCommand {
    static let configuration = EvalDetectArguments.configuration

    @OptionGroup var arguments: EvalDetectArguments

    func run() throws {
        if arguments.plot != nil { try SiblingProgram.execForwardingArguments(to: SiblingProgram.media) }
        try arguments.run(plotWriter: nil)
    }
}
