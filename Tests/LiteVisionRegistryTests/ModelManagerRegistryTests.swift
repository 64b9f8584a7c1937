import Foundation
import LiteVisionModelManager
import LiteVisionModelStore
import LiteVisionTestSupport
import Testing

/// ML Kit's ModelManager flow against the registry, as an app runs it: download, label with the remote model,
/// a new version, a rollback, deletion.
@Suite("ModelManager with a registry (real server process on loopback)", .serialized)
struct ModelManagerRegistryTests {
    @Test("v1 → labels of the local file; v2 posts success and a recreated labeler uses it; promote v1 → v1; delete")
    func versions() throws {
        let folder = TestData.temporaryDirectory("manager-registry")
        defer { try? FileManager.default.removeItem(at: folder) }
        let data = folder.appendingPathComponent("data").path
        let server = try RegistryProcess(data: data)
        defer { server.stop() }
        let tokenFile = try server.makePublishToken(in: folder).file
        func publish(_ file: String) throws {
            let result = try Executables.litevision([
                "models", "publish", "--registry", server.base, "--token-file", tokenFile, "birds",
                TestData.model(file),
            ])
            #expect(result.status == 0, "\(result.errors)")
        }
        func labels(_ options: CustomImageLabelerOptions) throws -> [ImageLabel] {
            try ImageLabeler(options: options).results(
                in: VisionImage(contentsOfFile: TestData.image("bird.jpg")))
        }
        let bird = try labels(CustomImageLabelerOptions(localModel: LocalModel(path: TestData.model("bird.tflite"))))
        let mobilenet = try labels(
            CustomImageLabelerOptions(localModel: LocalModel(path: TestData.model("mobilenet_v1_025_float.tflite"))))
        #expect(bird != mobilenet)

        let manager = ModelManager.modelManager()  // the default cache, as labelers read it
        let recorder = RegistryFaultTests.Recorder(manager)
        let model = CustomRemoteModel(remoteModelSource: .registry(server.base, name: "birds"))
        defer { _ = try? ModelCache().delete(model) }

        try publish("bird.tflite")
        manager.download(model, conditions: ModelDownloadConditions())
        #expect(recorder.wait(for: 1).map(\.name) == [.mlkitModelDownloadDidSucceed])
        #expect(try labels(CustomImageLabelerOptions(remoteModel: model)) == bird)

        try publish("mobilenet_v1_025_float.tflite")
        manager.download(model, conditions: ModelDownloadConditions())
        #expect(recorder.wait(for: 2).map(\.name) == [.mlkitModelDownloadDidSucceed, .mlkitModelDownloadDidSucceed])
        #expect(try labels(CustomImageLabelerOptions(remoteModel: model)) == mobilenet)

        let promoted = try Executables.litevision([
            "models", "promote", "--registry", server.base, "--token-file", tokenFile, "birds", "1",
        ])
        #expect(promoted.status == 0)
        manager.download(model, conditions: ModelDownloadConditions())
        #expect(recorder.wait(for: 3).map(\.name).last == .mlkitModelDownloadDidSucceed)
        #expect(try labels(CustomImageLabelerOptions(remoteModel: model)) == bird)

        // The newest is there: success at once, again.
        manager.download(model, conditions: ModelDownloadConditions())
        #expect(recorder.wait(for: 4).map(\.name).last == .mlkitModelDownloadDidSucceed)

        let folderOfModel = ModelCache().folder(of: model)
        let deleted = DispatchSemaphore(value: 0)
        manager.deleteDownloadedModel(model) { _ in deleted.signal() }
        #expect(deleted.wait(timeout: .now() + 30) == .success)
        #expect(!manager.isModelDownloaded(model) && !FileManager.default.fileExists(atPath: folderOfModel))
        #expect(throws: VisionError.self) {
            try ImageLabeler(options: CustomImageLabelerOptions(remoteModel: model))
        }
    }

    @Test("detect --remote-model --classify gives the labels of the same classifier given as a local file")
    func detectWithRemoteClassifier() throws {
        let folder = TestData.temporaryDirectory("detect-remote")
        defer { try? FileManager.default.removeItem(at: folder) }
        let data = folder.appendingPathComponent("data").path
        let server = try RegistryProcess(data: data)
        defer { server.stop() }
        let tokenFile = try server.makePublishToken(in: folder).file
        let classifier = TestData.model("object_labeler.tflite")
        #expect(
            try Executables.litevision([
                "models", "publish", "--registry", server.base, "--token-file", tokenFile, "objects", classifier,
            ]).status == 0)
        let image = TestData.image("pets.jpg")
        let common = ["detect", "--json", "--multiple", "--classify", "--model-dir", TestData.path("models")]
        let remote = try Executables.litevision(
            common + [
                "--remote-model", "objects", "--registry", server.base, "--cache",
                folder.appendingPathComponent("cache").path, image,
            ])
        let local = try Executables.litevision(common + ["--model", classifier, image])
        #expect(remote.status == 0 && local.status == 0, "\(remote.errors) \(local.errors)")
        #expect(remote.output == local.output && remote.output.contains("\"labels\""))
    }
}
