import ArgumentParser
import LiteVisionCommandSupport

/// `litevision eval track`: MOTChallenge files through HOTA, CLEAR and Identity.
struct EvalTrackCommand: ParsableCommand {
    static let configuration = EvalTrackArguments.configuration

    @OptionGroup var arguments: EvalTrackArguments

    func run() throws { try arguments.run() }
}
