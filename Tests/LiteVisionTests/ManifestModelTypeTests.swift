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
        let detectionModel = try #require(LocalModel(manifestPath: detection))
        do {
            _ = try ImageLabeler(options: CustomImageLabelerOptions(localModel: detectionModel))
            Issue.record("an OBJECT_DETECTION bundle was accepted by a labeler")
        } catch {
            guard case .unsupportedModel(let path, let reason) = error else {
                Issue.record("unexpected \(error)")
                return
            }
            #expect(path == detection && reason.contains("OBJECT_DETECTION") && reason.contains("IMAGE_LABELING"))
        }

        let labeling = try Self.manifest("IMAGE_LABELING", in: folder)
        let labelingModel = try #require(LocalModel(manifestPath: labeling))
        let options = ObjectDetectorOptions()
        options.detectorMode = .singleImage
        options.detectorModel = labelingModel
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

    @Test("An unknown model type is refused by the manifest reader: nil, or the reason, naming the manifest")
    func unknownKind() throws {
        let folder = TestData.temporaryDirectory("manifest-kind")
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = try Self.manifest("TEXT_CLASSIFICATION", in: folder)
        #expect(LocalModel(manifestPath: path) == nil)
        do {
            _ = try LocalModel(validatingManifestPath: path)
            Issue.record("a TEXT_CLASSIFICATION manifest was accepted")
        } catch {
            guard case .unsupportedModel(let named, let reason) = error else {
                Issue.record("unexpected \(error)")
                return
            }
            #expect(named == path && reason.contains("TEXT_CLASSIFICATION"), "\(reason)")
        }
        // A manifest changed after the model was made is checked again by the labeler.
        let model = try #require(LocalModel(manifestPath: try Self.manifest("IMAGE_LABELING", in: folder)))
        _ = try Self.manifest("TEXT_CLASSIFICATION", in: folder)
        #expect(throws: VisionError.self) {
            try ImageLabeler(options: CustomImageLabelerOptions(localModel: model))
        }
    }
}
