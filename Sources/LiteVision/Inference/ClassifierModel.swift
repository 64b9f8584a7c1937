import LiteRT
import LiteVisionGeometry
import LiteVisionImaging
import LiteVisionModelStore
import TFLiteFormat

/// A custom image classifier checked against ML Kit's custom-model requirements, compiled and ready:
/// the engine behind ``ImageLabeler`` (and, next, the custom classification of detected objects).
///
/// Requirements (checked when it is created, each failure a ``VisionError/unsupportedModel(path:reason:)``):
/// exactly one input, uint8 or float32, shaped `[1, height, width, 3]`; a float32 input needs
/// NormalizationOptions (mean/std) in the model's metadata; exactly one output of uint8, int8 or float32
/// scores shaped `[1, N]` or `[1, 1, 1, N]`; a label list, when there is one, with N lines.
final class ClassifierModel: Sendable {
    let model: ImageModel
    let classCount: Int
    let labels: [String]?
    /// The metadata's score threshold of the output, if any.
    let metadataThreshold: Float?

    var path: String { model.path }
    var input: ModelInput { model.input }

    init(_ resolved: ResolvedModel, settings: ProcessingOptions, locale: String = "en") throws(VisionError) {
        try resolved.requireManifestModelType("IMAGE_LABELING")
        model = try ImageModel(resolved, settings: settings, checkOutputs: Self.outputViolations)
        classCount = model.file.outputs[0].shape.last!
        metadataThreshold = model.file.metadata?.outputTensors.first?.scoreThreshold
        labels = try Self.labels(model: resolved, file: model.file, classCount: classCount, locale: locale)
        guard model.outputs[0].elementCount == classCount else {
            throw .invalidModel(
                path: resolved.name, reason: "the runtime reads its output as \(model.outputs[0].shape)")
        }
    }

    /// Every way the outputs of `file` break ML Kit's custom-model requirements for a classifier.
    static func outputViolations(_ file: TFLiteModelFile) -> [String] {
        var reasons: [String] = []
        if file.outputs.count != 1 {
            reasons.append(
                "a classifier has exactly one output of scores, this model has \(file.outputs.count) outputs (is it a detector?)"
            )
        } else {
            let output = file.outputs[0]
            if ![TensorElementType.uint8, .int8, .float32].contains(output.elementType) {
                reasons.append("its output must be uint8, int8 or float32 scores, it is \(output.elementType)")
            }
            let shape = output.shape
            let ok =
                (shape.count == 2 && shape[0] == 1 && shape[1] > 0)
                || (shape.count == 4 && shape[0] == 1 && shape[1] == 1 && shape[2] == 1 && shape[3] > 0)
            if !ok { reasons.append("its output must be shaped [1, N] or [1, 1, 1, N], it is \(shape)") }
        }
        return reasons
    }

    /// The labels a classifier of `classCount` classes reads for `locale` (the user's label file, else the
    /// metadata's), or nil when it has none; throws when they cannot be read or their count is not `classCount`.
    /// What the registry's upload check runs too, so that it accepts exactly what clients accept.
    static func labels(
        model: ResolvedModel, file: TFLiteModelFile, classCount: Int,
        locale: String
    ) throws(VisionError) -> [String]? {
        guard let (list, source) = try LabelSource.labels(for: model, file: file, output: 0, locale: locale) else {
            return nil
        }
        guard list.count == classCount else {
            throw .invalidLabels(
                path: source, reason: "it has \(list.count) labels but the model scores \(classCount) classes")
        }
        return list
    }

    /// Runs the classifier on `image`, or the `region` of its stored pixels, and gives `body` the
    /// dequantized scores, one per class.
    func withScores<R>(
        of image: OrientedImage, region: PixelRect? = nil,
        _ body: (UnsafeBufferPointer<Float>) -> R
    ) throws(VisionError) -> R {
        do {
            return try model.pool.withSession { session in
                try model.writeInput(image, region: region, session: session)
                try session.compiled.run()
                return try session.compiled.withOutput(0) { raw in
                    ScoreReader.dequantize(raw, signature: model.outputs[0], count: classCount, into: &session.scores)
                    return session.scores.withUnsafeBufferPointer { body($0) }
                }
            }
        } catch {
            throw VisionError(runningModel: error)
        }
    }
}
