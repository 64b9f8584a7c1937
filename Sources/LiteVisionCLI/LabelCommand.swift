import ArgumentParser
import LiteVisionCommandSupport

/// `litevision label`: image labeling with a custom classifier, run here (``LabelArguments/run()``).
struct LabelCommand: ParsableCommand {
    static let configuration = LabelArguments.configuration

    @OptionGroup var arguments: LabelArguments

    func run() throws { try arguments.run() }
}
