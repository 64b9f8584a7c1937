import Foundation
import LiteVision
import LiteVisionTestSupport
import Testing

/// One expected label from reference/labels.json (computed with the official LiteRT runtime).
struct ReferenceLabel: Decodable {
    let index: Int
    let text: String
    let confidence: Float
}

/// The reference outputs: model file name → image file name → top-10 labels.
enum ReferenceLabels {
    static func load(
        from path: String = TestData.path("reference/labels.json")
    ) throws -> [String: [String: [ReferenceLabel]]] {
        try JSONDecoder().decode(
            [String: [String: [ReferenceLabel]]].self,
            from: Data(contentsOf: URL(fileURLWithPath: path)))
    }

    /// The four classifiers of the reference, each with how to open it.
    static let models: [(file: String, model: @Sendable () -> LocalModel)] = [
        ("bird.tflite", { LocalModel(path: TestData.model("bird.tflite")) }),
        ("object_labeler.tflite", { LocalModel(path: TestData.model("object_labeler.tflite")) }),
        (
            "automl_flowers.tflite",
            {
                LocalModel(
                    path: TestData.model("automl_flowers.tflite"),
                    labelsPath: TestData.model("automl_flowers.labels.txt"))
            }
        ),
        ("mobilenet_v1_025_float.tflite", { LocalModel(path: TestData.model("mobilenet_v1_025_float.tflite")) }),
    ]

    /// The issue's parity rule, as a list of failures (empty when `labels` agree with `reference`):
    /// - the top-1 index equals the reference wherever the reference top-1 is ≥ 0.5 and leads the second by ≥ 0.1;
    /// - every reference label with confidence ≥ 0.1 comes back within ±0.03 of the reference confidence.
    static func parityFailures(labels: [ImageLabel], reference: [ReferenceLabel], context: String) -> [String] {
        var failures: [String] = []
        if reference.count >= 2, reference[0].confidence >= 0.5,
            reference[0].confidence - reference[1].confidence >= 0.1, labels.first?.index != reference[0].index
        {
            failures.append(
                "\(context): top-1 is \(labels.first.map { "\($0.index)" } ?? "nothing"), reference \(reference[0].index) (\(reference[0].confidence))"
            )
        }
        for expected in reference where expected.confidence >= 0.1 {
            guard let found = labels.first(where: { $0.index == expected.index }) else {
                failures.append(
                    "\(context): label \(expected.index) \(expected.text) (\(expected.confidence)) is missing")
                continue
            }
            if abs(found.confidence - expected.confidence) > 0.03 {
                failures.append(
                    "\(context): label \(expected.index) has \(found.confidence), reference \(expected.confidence)")
            }
            if !expected.text.isEmpty && found.text != expected.text {
                failures.append(
                    "\(context): label \(expected.index) text \"\(found.text)\", reference \"\(expected.text)\"")
            }
        }
        return failures
    }
}

/// A labeler that returns every label (threshold 0, many results), for comparing with references.
func exhaustiveLabeler(
    _ model: LocalModel, decodingScale: ProcessingOptions.DecodingScale = .full,
    preprocessing: ProcessingOptions.Preprocessing = .exact, maxResultCount: Int = 50
) throws -> ImageLabeler {
    let options = CustomImageLabelerOptions(localModel: model)
    options.confidenceThreshold = 0
    options.maxResultCount = maxResultCount
    options.processing.decodingScale = decodingScale
    options.processing.preprocessing = preprocessing
    return try ImageLabeler(options: options)
}
