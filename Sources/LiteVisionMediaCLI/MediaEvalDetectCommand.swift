import ArgumentParser
import LiteVisionCommandSupport

/// `litevision eval detect`, as `litevision-media` runs it: the precision-recall curves drawn with Cairo.
struct MediaEvalDetectCommand: ParsableCommand {
    static let configuration = EvalDetectArguments.configuration

    @OptionGroup var arguments: EvalDetectArguments

    func run() throws { try arguments.run(plotWriter: EvaluationPlotWriter.write) }
}
