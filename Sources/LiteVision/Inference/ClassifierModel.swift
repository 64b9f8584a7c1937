import LiteRTRuntime
import LiteVisionImaging
import TFLiteModel

/// A custom image classifier checked against ML Kit's custom-model requirements, compiled and ready:
/// the engine behind ``ImageLabeler`` (and, next, the custom classification of detected objects).
///
/// Requirements (checked when it is created, each failure a ``VisionError/unsupportedModel(path:reason:)``):
/// exactly one input, uint8 or float32, shaped `[1, height, width, 3]`; a float32 input needs
/// NormalizationOptions (mean/std) in the model's metadata; exactly one output of uint8, int8 or float32
/// scores shaped `[1, N]` or `[1, 1, 1, N]`; a label list, when there is one, with N lines.
final class ClassifierModel: Sendable {
    let path: String
    let inputWidth: Int
    let inputHeight: Int
    /// `nil` for uint8 input; per-channel (mean, 1/std) for float32 input.
    let normalization: (mean: SIMD3<Float>, inverseStd: SIMD3<Float>)?
    let classCount: Int
    let labels: [String]?
    /// The metadata's score threshold of the output, if any.
    let metadataThreshold: Float?
    let pool: SessionPool

    private let output: TensorSignature

    init(_ model: LocalModel, threadCount: Int, locale: String = "en", runtimeLibraryPath: String? = nil) throws(VisionError) {
        let model = try model.manifestPath.map { (manifest) throws(VisionError) in try AutoMLManifest.resolve(manifest) } ?? model
        let path = model.path
        self.path = path
        let file: TFLiteModelFile
        do {
            file = try TFLiteModelFile(bytes: try FileReader.read(path))
        } catch let error as VisionError {
            throw error
        } catch {
            throw .invalidModel(path: path, reason: "\(error)")
        }
        let reasons = Self.requirementViolations(file)
        if let first = reasons.first { throw .unsupportedModel(path: path, reason: first) }
        let input = file.inputs[0]
        inputHeight = input.shape[1]
        inputWidth = input.shape[2]
        classCount = file.outputs[0].shape.last!
        let inputMetadata = file.metadata?.inputTensors.first
        if input.elementType == .float32 {
            guard let options = inputMetadata?.normalization, !options.mean.isEmpty, !options.std.isEmpty else {
                throw .unsupportedModel(path: path, reason: """
                    its input is float32 but its metadata has no NormalizationOptions (mean and std), so LiteVision \
                    cannot know how to scale pixels; add them with the TFLite Support metadata writer, as ML Kit requires
                    """)
            }
            guard [1, 3].contains(options.mean.count), [1, 3].contains(options.std.count),
                  options.std.allSatisfy({ $0 != 0 && $0.isFinite }), options.mean.allSatisfy(\.isFinite) else {
                throw .unsupportedModel(path: path, reason: "its NormalizationOptions must have 1 or 3 finite means and non-zero stds, got mean \(options.mean) std \(options.std)")
            }
            let mean = options.mean.count == 1 ? SIMD3(repeating: options.mean[0]) : SIMD3(options.mean)
            let std = options.std.count == 1 ? SIMD3(repeating: options.std[0]) : SIMD3(options.std)
            normalization = (mean, 1 / std)
        } else {
            normalization = nil
        }
        metadataThreshold = file.metadata?.outputTensors.first?.scoreThreshold
        labels = try Self.labels(model: model, file: file, classCount: classCount, locale: locale)

        let runtime: LiteRtRuntime
        do {
            runtime = try LiteRtRuntime.load(libraryPath: runtimeLibraryPath)
        } catch {
            throw .runtimeUnavailable(error)
        }
        let compiledModel: Model
        do {
            compiledModel = try Model(runtime: runtime, path: path)
        } catch {
            throw .runtime(error)
        }
        let options = CompilationOptions(threadCount: threadCount)
        let make: @Sendable () throws -> InferenceSession = {
            InferenceSession(compiled: try CompiledModel(model: compiledModel, options: options))
        }
        let first: InferenceSession
        do {
            first = try make()
        } catch let error as LiteRtError {
            throw .runtime(error)
        } catch {
            throw .invalidModel(path: path, reason: "\(error)")
        }
        let runtimeInput = first.compiled.inputs[0]
        guard runtimeInput.shape == input.shape, first.compiled.outputs.count == 1,
              first.compiled.outputs[0].elementCount == classCount else {
            throw .invalidModel(path: path, reason: "the runtime reads its signature differently (input \(runtimeInput.shape))")
        }
        output = first.compiled.outputs[0]
        pool = SessionPool(limit: max(2, LiteRtRuntime.defaultThreadCount), first: first, make: make)
    }

    /// Every way `file` breaks ML Kit's custom-model requirements for a classifier.
    static func requirementViolations(_ file: TFLiteModelFile) -> [String] {
        var reasons: [String] = []
        if file.inputs.count != 1 {
            reasons.append("a classifier has exactly one input, this model has \(file.inputs.count)")
        } else {
            let input = file.inputs[0]
            if input.elementType != .uint8 && input.elementType != .float32 {
                reasons.append("its input must be uint8 or float32, it is \(input.elementType)")
            }
            if input.shape.count != 4 || input.shape[0] != 1 || input.shape[3] != 3 || input.shape[1] <= 0 || input.shape[2] <= 0 {
                reasons.append("its input must be shaped [1, height, width, 3] (one RGB image), it is \(input.shape)")
            }
        }
        if file.outputs.count != 1 {
            reasons.append("a classifier has exactly one output of scores, this model has \(file.outputs.count) outputs (is it a detector?)")
        } else {
            let output = file.outputs[0]
            if ![TensorElementType.uint8, .int8, .float32].contains(output.elementType) {
                reasons.append("its output must be uint8, int8 or float32 scores, it is \(output.elementType)")
            }
            let shape = output.shape
            let ok = (shape.count == 2 && shape[0] == 1 && shape[1] > 0)
                || (shape.count == 4 && shape[0] == 1 && shape[1] == 1 && shape[2] == 1 && shape[3] > 0)
            if !ok { reasons.append("its output must be shaped [1, N] or [1, 1, 1, N], it is \(shape)") }
        }
        return reasons
    }

    private static func labels(model: LocalModel, file: TFLiteModelFile, classCount: Int,
                               locale: String) throws(VisionError) -> [String]? {
        let list: [String]
        let source: String
        if let labelsPath = model.labelsPath {
            list = LabelMap(text: try FileReader.read(labelsPath)).labels
            source = labelsPath
        } else {
            let map: LabelMap?
            do {
                map = try file.labelMap(forOutput: 0, locale: locale)
            } catch {
                throw .invalidLabels(path: model.path, reason: "the label file in the model cannot be read (\(error))")
            }
            guard let map else { return nil }
            list = map.labels
            source = "\(model.path) (metadata)"
        }
        guard list.count == classCount else {
            throw .invalidLabels(path: source, reason: "it has \(list.count) labels but the model scores \(classCount) classes")
        }
        return list
    }

    /// Runs the classifier on `image` (its stored pixels turned by `orientation`) and gives `body` the
    /// dequantized scores, one per class.
    func withScores<R>(of image: ImageBuffer, orientation: ImageOrientation,
                       _ body: (UnsafeBufferPointer<Float>) throws -> R) throws(VisionError) -> R {
        do {
            return try pool.withSession { session in
                try session.compiled.withInput(0) { tensor in
                    InputWriter.write(image, orientation: orientation, width: inputWidth, height: inputHeight,
                                      normalization: normalization, into: tensor, session: session)
                }
                try session.compiled.run()
                return try session.compiled.withOutput(0) { raw in
                    OutputReader.dequantize(raw, signature: output, count: classCount, into: &session.scores)
                    return try session.scores.withUnsafeBufferPointer { try body($0) }
                }
            }
        } catch let error as VisionError {
            throw error
        } catch let error as LiteRtError {
            throw .runtime(error)
        } catch {
            throw .invalidImage("\(error)")
        }
    }
}
