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
        let labelCount = file.outputs.indices.lazy.compactMap { try? file.labelMap(forOutput: $0, locale: "en")?.count }
            .first
        func tensors(_ list: [TensorInfo]) -> [Tensor] {
            list.map { Tensor(name: $0.name, type: "\($0.elementType)", shape: $0.shape) }
        }
        return .success(
            ModelSummary(
                kind: kind, name: file.metadata?.name, version: file.metadata?.version, inputs: tensors(file.inputs),
                outputs: tensors(file.outputs), labelCount: labelCount))
    }
}

/// Why LiteVision would not use a model file.
package struct ModelRefusal: Error, Sendable, Equatable, CustomStringConvertible {
    package var reasons: [String]
    package var description: String { reasons.joined(separator: "; ") }
}
