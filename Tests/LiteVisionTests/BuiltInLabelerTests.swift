import LiteVision
import LiteVisionTestSupport
import Testing

/// ML Kit's base labeler: `ImageLabelerOptions` (confidence threshold 0.5), `CommonImageLabelerOptions` as the
/// base of it and `CustomImageLabelerOptions`, and `ImageLabeler.imageLabeler(options:)` taking either.
@Suite("The built-in image labeler")
struct BuiltInLabelerTests {
    static func options() -> ImageLabelerOptions {
        let options = ImageLabelerOptions()
        options.modelDirectory = TestData.path("models")
        options.allowsModelDownload = false
        return options
    }

    @Test("ML Kit's defaults: threshold 0.5, every label above it; custom options keep maxResultCount 10")
    func defaults() throws {
        let options = ImageLabelerOptions()
        #expect(options.confidenceThreshold == nil, "unset, as ML Kit's; 0.5 is used")
        let custom = CustomImageLabelerOptions(localModel: LocalModel(path: TestData.model("bird.tflite")))
        #expect(custom.maxResultCount == 10)
        #expect(custom.confidenceThreshold == nil)
        let labeler = try ImageLabeler(options: Self.options())
        #expect(labeler.confidenceThreshold == 0.5)
        #expect(labeler.labels?.count == 631, "object_labeler.tflite's Open Images labels")
        let invalid = Self.options()
        invalid.confidenceThreshold = 1.5
        #expect(try ImageLabeler(options: invalid).confidenceThreshold == 0.5)
        let chosen = Self.options()
        chosen.confidenceThreshold = 0.7
        #expect(try ImageLabeler(options: chosen).confidenceThreshold == 0.7)
    }

    @Test("Labels of the shared photos: the object labeler's reference labels at or above 0.5")
    func sharedPhotos() throws {
        let reference = try ReferenceLabels.load()["object_labeler.tflite"] ?? [:]
        #expect(reference.count >= 10)
        // Both shapes of ML Kit's code: the base options' type, and the common type.
        let labeler = ImageLabeler.imageLabeler(options: Self.options())
        let common: CommonImageLabelerOptions = Self.options()
        #expect(ImageLabeler.imageLabeler(options: common) === labeler)
        var labeled = 0
        for (name, expected) in reference.sorted(by: { $0.key < $1.key }) {
            let labels = try labeler.results(in: try VisionImage(contentsOfFile: TestData.image(name)))
            #expect(labels.allSatisfy { $0.confidence >= 0.5 }, "\(name): \(labels)")
            // The reference's confident labels come back (within the parity rule's ±0.03), and nothing the
            // reference puts clearly below the threshold.
            for label in expected where label.confidence >= 0.53 {
                let found = labels.first { $0.index == label.index }
                #expect(found?.text == label.text, "\(name): \(label.text) missing from \(labels)")
                #expect(abs((found?.confidence ?? 0) - label.confidence) <= 0.03, "\(name): \(label.text)")
            }
            for label in labels {
                if let known = expected.first(where: { $0.index == label.index }) {
                    #expect(known.confidence >= 0.47, "\(name): \(label.text) is \(known.confidence) in the reference")
                }
            }
            labeled += labels.isEmpty ? 0 : 1
        }
        #expect(labeled >= 5, "most shared photos have a label at 0.5 or more")
    }
}
