import Foundation
import LiteVision
import LiteVisionModelManager
import LiteVisionTestSupport
import LiteVisionVideo
import Synchronization
import Testing

/// The README's Swift examples, verbatim (keep them in sync): they must compile and run.
/// The tests run from the package root, where the README's `../shared` paths point at the shared data.
@Suite("README examples")
struct ReadmeExamplesTests {
    @Test("Labeling images with a custom model")
    func labeling() throws {
        let options = CustomImageLabelerOptions(localModel: LocalModel(path: "../shared/models/bird.tflite"))
        options.confidenceThreshold = NSNumber(value: 0.3)  // unset: the model's metadata threshold, else 0
        options.maxResultCount = 5  // unset: 10
        let labeler = ImageLabeler.imageLabeler(options: options)  // a bad model is reported by results(in:)

        let image = try VisionImage(contentsOfFile: "../shared/images/bird.jpg")  // EXIF orientation honoured
        for label in try labeler.results(in: image) {
            print(label.index, label.text, label.confidence)  // "567 Ardea cinerea (Grey Heron) 0.97"
        }
        #expect(try labeler.results(in: image).first?.index == 567)
    }

    @Test("Object detection and tracking")
    func detection() throws {
        let options = ObjectDetectorOptions()  // stream mode, one object, no classification (ML Kit's defaults)
        options.shouldEnableMultipleObjects = true  // up to 5 objects (options.maximumObjectCount raises the cap)
        options.shouldEnableClassification = true  // Fashion good, Home good, Food, Place, Plant
        options.modelDirectory = "../shared/models"  // where the built-in models are (see below)
        let detector = try ObjectDetector(options: options)  // ML Kit's objectDetector(options:) reports errors later

        let frame = try VisionImage(contentsOfFile: "../shared/images/burger.jpg").decoded()  // or a camera frame:
        // VisionImage(pixels: bgra, width: 640, height: 480, format: .bgra8, orientation: .right)
        for object in try detector.results(in: frame) {
            print(object.trackingID ?? -1, object.frame, object.labels.first?.text ?? "-")  // "0 (21.5, 34.0, …) Food"
        }
        #expect(try detector.results(in: frame).first?.labels.first?.text == "Food")
    }

    @Test("Cameras and network streams")
    func cameras() async throws {
        let options = ObjectDetectorOptions()  // stream mode: tracking IDs
        options.modelDirectory = "../shared/models"
        let detector = try ObjectDetector(options: options)

        let camera = try VideoSource("../shared/video/cup.mp4")  // or "/dev/video0", "rtsp://user:pw@camera/stream1", ...
        var ids: [Int] = []
        for try await frame in camera.frames {  // a file: every frame; a camera: the newest one
            for object in try detector.results(in: frame.image, timestamp: frame.timestamp) {
                print(frame.index, object.trackingID ?? -1, object.frame)  // "0 0 (297.1, 120.6, …)"
                ids.append(object.trackingID ?? -1)
            }
        }
        #expect(ids.count > 150 && ids.allSatisfy { $0 == 0 })

        // Several cameras, and a live view
        let cameras = try ["../shared/video/cup.mp4", "../shared/video/traffic_frames.mp4"].map { try VideoSource($0) }
        options.processing.threadCount = 1  // the pipeline's workers (one per core) are the parallelism
        let pipeline = try VideoPipeline(sources: cameras, options: options)  // a detector (and tracker) per camera
        let seen = Mutex([0, 0])
        await pipeline.run { result in  // on a worker thread; each camera's results in order
            print(result.sourceIndex, result.frame.index, result.objects.map(\.trackingID))
            seen.withLock { $0[result.sourceIndex] += 1 }
        }
        #expect(seen.withLock { $0 } == [217, 20])
    }

    @Test("Hosted models (the address is a loopback server's, the bundled model a shared one)")
    func hostedModels() throws {
        let server = try LoopbackModelServer(serving: ["birds.tflite": TestData.model("bird.tflite")])
        defer { server.stop() }
        let done = DispatchSemaphore(value: 0)

        let remoteModel = CustomRemoteModel(
            remoteModelSource: .url(
                server.base("ok") + "/birds.tflite",
                sha256: "79510633209226cbb86b356be5a743e554c01789acd939d73d1fcf8d5b64416f"))
        let observer = NotificationCenter.default.addObserver(
            forName: .mlkitModelDownloadDidSucceed, object: nil, queue: nil
        ) { note in
            // From now on: ImageLabeler.imageLabeler(options: CustomImageLabelerOptions(remoteModel: remoteModel))
            if note.userInfo?[ModelDownloadUserInfoKey.remoteModel.rawValue] as? RemoteModel == remoteModel {
                done.signal()
            }
        }
        defer { NotificationCenter.default.removeObserver(observer) }
        let progress = ModelManager.modelManager().download(remoteModel, conditions: ModelDownloadConditions())
        defer {
            let deleted = DispatchSemaphore(value: 0)
            ModelManager.modelManager().deleteDownloadedModel(remoteModel) { _ in deleted.signal() }
            deleted.wait()
        }

        #expect(done.wait(timeout: .now() + 30) == .success)
        #expect(progress.completedUnitCount == progress.totalUnitCount)
        // ML Kit's pattern: the remote model if it is downloaded, else the bundled local one.
        let options =
            ModelManager.modelManager().isModelDownloaded(remoteModel)
            ? CustomImageLabelerOptions(remoteModel: remoteModel)
            : CustomImageLabelerOptions(localModel: LocalModel(path: "../shared/models/bird.tflite"))
        #expect(options.remoteModel == remoteModel)
        let labels = try ImageLabeler.imageLabeler(options: options).results(
            in: try VisionImage(contentsOfFile: "../shared/images/bird.jpg"))
        #expect(labels.first?.index == 567)
    }

    @Test("A model registry of your own: the Swift line")
    func registrySource() {
        let remoteModel = CustomRemoteModel(
            remoteModelSource: .registry("https://models.example.com:8470", name: "birds"))
        #expect(remoteModel.name == "birds")
    }
}
