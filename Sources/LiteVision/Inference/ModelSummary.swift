import LiteVisionModelStore
import TFLiteFormat

/// What a `.tflite` file is, as LiteVision would use it: a classifier (an ``ImageLabeler`` or a custom object
/// classifier) or an SSD detector, with the parts of its own metadata worth showing. The model registry
/// refuses an upload this cannot summarize, with the reasons.
package struct ModelSummary: Codable, Sendable, Equatable {
    /// One input or output tensor.
    package struct Tensor: Codable, Sendable, Equatable {
        package var name: String
        package var type: String
        package var shape: [Int]
    }

    /// `classifier` or `detector`.
    package var kind: String
    /// The name in the model's metadata.
    package var name: String?
    /// The version in the model's metadata.
    package var version: String?
    package var inputs: [Tensor]
    package var outputs: [Tensor]
    /// The number of labels in the model's metadata (the first output that has a label file).
    package var labelCount: Int?

    /// The summary of the model in `bytes`, or every reason LiteVision would refuse it.
    package static func of(_ bytes: [UInt8]) -> Result<ModelSummary, ModelRefusal> {
        let file: TFLiteModelFile
        do {
            file = try TFLiteModelFile(bytes: bytes)
        } catch {
            return .failure(ModelRefusal(reasons: ["it is not a valid TFLite model: \(error)"]))
        }
        var reasons = ImageModel.inputViolations(file)
        if reasons.isEmpty {
            do {
                _ = try ImageModel.normalization(of: file, path: "the model")
            } catch {
                if case .unsupportedModel(_, let reason) = error {
                    reasons.append(reason)
                } else {
                    reasons.append("\(error)")
                }
            }
        }
        let classifier = ClassifierModel.outputViolations(file)
        let detector = DetectorModel.outputViolations(file)
        let kind: String
        if classifier.isEmpty {
            kind = "classifier"
        } else if detector.isEmpty {
            kind = "detector"
        } else {
            reasons += [
                "as a classifier: " + classifier.joined(separator: "; "),
                "as a detector: " + detector.joined(separator: "; "),
            ]
            kind = ""
        }
        guard reasons.isEmpty else { return .failure(ModelRefusal(reasons: reasons)) }
        let labelCount: Int?
        do {
            labelCount = try acceptedLabelCount(bytes, file: file, isClassifier: kind == "classifier")
        } catch {
            return .failure(ModelRefusal(reasons: ["\(error)"]))
        }
        func tensors(_ list: [TensorInfo]) -> [Tensor] {
            list.map { Tensor(name: $0.name, type: "\($0.elementType)", shape: $0.shape) }
        }
        return .success(
            ModelSummary(
                kind: kind, name: file.metadata?.name, version: file.metadata?.version, inputs: tensors(file.inputs),
                outputs: tensors(file.outputs), labelCount: labelCount))
    }
}

extension ModelSummary {
    /// The number of labels a client reads from the model's metadata (locale `en`), through the clients' own
    /// checks: a classifier's label list must have one line per class (``ClassifierModel``), and a detector's
    /// classes label file must be within LiteVision's limits (``LabelSource``). Nil when the model has no label file; throws the
    /// reason a client would refuse the labels.
    fileprivate static func acceptedLabelCount(
        _ bytes: [UInt8], file: TFLiteModelFile, isClassifier: Bool
    ) throws(VisionError) -> Int? {
        let model: ResolvedModel
        do {
            model = try LocalModel(bytes: bytes, name: "the model").resolve()
        } catch {
            throw VisionError(error)
        }
        if isClassifier {
            return try ClassifierModel.labels(
                model: model, file: file, classCount: file.outputs[0].shape.last ?? 0, locale: "en")?.count
        }
        // A detector's client reads the labels of its classes output only: the one the layout inference names from
        // the metadata and tensor names (the declared shapes stand in for those after a run), else the second output,
        // as SSD exports order them.
        let shapes = file.outputs.map(\.shape)
        let classes = ObjectDetectorOptions.DetectorOutputLayout.infer(file: file, shapes: shapes)?.classes ?? 1
        guard classes < file.outputs.count else { return nil }
        return try LabelSource.labels(for: model, file: file, output: classes, locale: "en")?.labels.count
    }
}

/// Why LiteVision would not use a model file.
package struct ModelRefusal: Error, Sendable, Equatable, CustomStringConvertible {
    package var reasons: [String]
    package var description: String { reasons.joined(separator: "; ") }
}
