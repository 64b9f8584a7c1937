import LiteVision
import LiteVisionCommandSupport
import LiteVisionDrawing
import LiteVisionImaging
import LiteVisionSystem

/// Draws `litevision eval --plot`'s charts with Cairo and writes them as PNG (to a temporary name, renamed when
/// complete).
enum EvaluationPlotWriter {
    @Sendable static func write(_ plot: EvaluationPlot, to path: String) throws {
        let image: ImageBuffer
        switch plot {
        case .confusionMatrix(let title, let rowLabels, let columnLabels, let counts):
            image = ChartRenderer.confusionMatrix(
                title: title, rowLabels: rowLabels, columnLabels: columnLabels, counts: counts)
        case .precisionRecall(let title, let recall, let curves):
            image = ChartRenderer.curves(
                title: title, xLabel: "recall", yLabel: "precision", x: recall,
                series: curves.map { (name: $0.name, y: $0.precision) })
        }
        let bytes = try PNGEncoder.encode(image)
        do throws(SystemError) {
            try AtomicFile.write(bytes, to: path)
        } catch {
            throw VisionError.fileNotWritable(path: path, reason: error.reason)
        }
    }
}
