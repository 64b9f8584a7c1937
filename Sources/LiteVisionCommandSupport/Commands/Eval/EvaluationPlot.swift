/// A chart `litevision eval` draws with `--plot`: the data only; `litevision-media` draws it with Cairo (this
/// module cannot link Cairo, see CONTRIBUTING's "Commands").
package enum EvaluationPlot: Sendable {
    /// A confusion matrix: `counts[row][column]`, rows the expected classes, columns the predicted ones.
    case confusionMatrix(title: String, rowLabels: [String], columnLabels: [String], counts: [[Int]])
    /// Precision–recall curves: each curve's precision at the given recall points.
    case precisionRecall(title: String, recall: [Double], curves: [(name: String, precision: [Double])])

    /// Draws a plot into a PNG file at a path (given by `litevision-media`).
    package typealias Writer = @Sendable (_ plot: EvaluationPlot, _ path: String) throws -> Void
}
