import ArgumentParser
import LiteVisionCommandSupport

/// `litevision eval classify`; with `--plot` it is run by `litevision-media`, which draws with Cairo.
struct EvalClassifyCommand: ParsableCommand {
    static let configuration = EvalClassifyArguments.configuration

    @OptionGroup var arguments: EvalClassifyArguments

    func run() throws {
        if arguments.plot != nil { try SiblingProgram.execForwardingArguments(to: SiblingProgram.media) }
        try arguments.run(plotWriter: nil)
    }
}
