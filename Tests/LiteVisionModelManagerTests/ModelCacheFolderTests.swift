import Foundation
import LiteVision
import LiteVisionModelManager
import LiteVisionModelStore
import LiteVisionTestSupport
import Testing

@Suite("The model cache folder as a setting of ModelManager and of the options (real HTTP server on loopback)")
struct ModelCacheFolderTests {
    @Test("A model downloaded by ModelManager(cacheFolder:) is found by options given that folder, and only then")
    func explicitFolder() async throws {
        let server = try LoopbackModelServer(serving: ["bird.tflite": TestData.model("bird.tflite")])
        let folder = TestData.temporaryDirectory("explicit-cache")
        defer {
            server.stop()
            try? FileManager.default.removeItem(at: folder)
        }
        let model = CustomRemoteModel(
            remoteModelSource: .url(server.base("ok") + "/bird.tflite", sha256: TestData.birdModelSHA256))
        let manager = ModelManager(cacheFolder: folder.path)
        try await manager.downloadModel(model)
        #expect(manager.isModelDownloaded(model))
        #expect(FileManager.default.fileExists(atPath: ModelCache(root: folder.path).folder(of: model)))
        #expect(!ModelManager.modelManager().isModelDownloaded(model))  // not in the default cache

        let image = try VisionImage(contentsOfFile: TestData.image("bird.jpg"))
        #expect(throws: VisionError.self) { try ImageLabeler(options: CustomImageLabelerOptions(remoteModel: model)) }
        let options = CustomImageLabelerOptions(remoteModel: model)
        options.modelCacheFolder = folder.path
        let labels = try ImageLabeler(options: options).results(in: image)
        let local = try ImageLabeler(
            options: CustomImageLabelerOptions(localModel: LocalModel(path: TestData.model("bird.tflite"))))
        #expect(!labels.isEmpty)
        #expect(labels == (try local.results(in: image)))

        let detectorOptions = CustomObjectDetectorOptions(remoteModel: model)
        detectorOptions.shouldEnableClassification = true
        detectorOptions.detectorMode = .singleImage
        detectorOptions.modelDirectory = TestData.path("models")
        detectorOptions.modelCacheFolder = folder.path
        #expect(try ObjectDetector(options: detectorOptions).results(in: image).count == 1)
    }

    @Test("An empty cache folder is the default cache, never the root of the file system")
    func emptyCacheFolder() {
        #expect(ModelCache(folder: "").root == ModelCache.defaultRoot)
        #expect(ModelCache(folder: "").remoteFolder == ModelCache(folder: nil).remoteFolder)
        #expect(!ModelCache.defaultRoot.isEmpty && ModelCache(folder: "").remoteFolder != "/remote")
    }
}
