import ArgumentParser
import LiteVisionCommandSupport

/// `litevision eval classify`, as `litevision-media` runs it: the confusion matrix drawn with Cairo.
struct MediaEvalClassifyCommand: ParsableCommand {
    static let configuration = EvalClassifyArguments.configuration

    @OptionGroup var arguments: EvalClassifyArguments

    func run() throws { try arguments.run(plotWriter: EvaluationPlotWriter.write) }
}
