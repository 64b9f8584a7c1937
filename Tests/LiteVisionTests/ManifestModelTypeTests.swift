import Foundation
import LiteVision
import LiteVisionTestSupport
import Testing

@Suite("AutoML manifests name the kind of model")
struct ManifestModelTypeTests {
    /// A manifest naming the shared flowers classifier and its labels, with `modelType`.
    static func manifest(_ modelType: String, in folder: URL) throws -> String {
        let path = folder.appendingPathComponent("manifest.json").path
        let json = """
            {"modelFile": "\(TestData.model("automl_flowers.tflite"))", \
            "labelsFile": "\(TestData.model("automl_flowers.labels.txt"))", "modelType": "\(modelType)"}
            """
        try Data(json.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test("A labeler refuses an object-detection bundle, naming the manifest; a detector refuses a labeling one")
    func kindMismatch() throws {
        let folder = TestData.temporaryDirectory("manifest-kind")
        defer { try? FileManager.default.removeItem(at: folder) }
        let detection = try Self.manifest("OBJECT_DETECTION", in: folder)
        do {
            _ = try ImageLabeler(
                options: CustomImageLabelerOptions(localModel: LocalModel(manifestPath: detection)))
            Issue.record("an OBJECT_DETECTION bundle was accepted by a labeler")
        } catch {
            guard case .unsupportedModel(let path, let reason) = error else {
                Issue.record("unexpected \(error)")
                return
            }
            #expect(path == detection && reason.contains("OBJECT_DETECTION") && reason.contains("IMAGE_LABELING"))
        }

        let labeling = try Self.manifest("IMAGE_LABELING", in: folder)
        let options = ObjectDetectorOptions()
        options.detectorMode = .singleImage
        options.detectorModel = LocalModel(manifestPath: labeling)
        do {
            _ = try ObjectDetector(options: options)
            Issue.record("an IMAGE_LABELING bundle was accepted as a detector")
        } catch {
            guard case .unsupportedModel(let path, let reason) = error else {
                Issue.record("unexpected \(error)")
                return
            }
            #expect(path == labeling && reason.contains("IMAGE_LABELING") && reason.contains("OBJECT_DETECTION"))
        }
    }

    @Test("An unknown model type is refused by the manifest reader")
    func unknownKind() throws {
        let folder = TestData.temporaryDirectory("manifest-kind")
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = try Self.manifest("TEXT_CLASSIFICATION", in: folder)
        #expect(throws: VisionError.self) {
            try ImageLabeler(
                options: CustomImageLabelerOptions(localModel: LocalModel(manifestPath: path)))
        }
    }
}
