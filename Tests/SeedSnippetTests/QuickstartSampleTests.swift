import Foundation
import LiteVisionModelManager
import LiteVisionTestSupport
import Testing

// Code in the shape of ML Kit's iOS quickstart apps (googlesamples/mlkit, ios/quickstarts/vision and
// ios/quickstarts/automl), beyond the guides' snippets: an AutoML manifest checked with `guard let`, overlays
// computed with `CGRect`s from `object.frame`, a failed download's error read `as? NSError`, a downloaded model
// deleted with a completion handler, and errors shown through `localizedDescription`. It is written here as
// those apps write it (their UIKit views replaced by what the test checks), compiled and run on Linux.

/// The AutoML app's model handling: a labeler from a bundled manifest, `nil` when the manifest is not usable.
final class AutoMLModels {
    var resultsText = ""

    func labeler(manifestPath localModelFilePath: String) -> ImageLabeler? {
        guard let localModel = LocalModel(manifestPath: localModelFilePath) else {
            resultsText = "Failed to load the AutoML local model."
            return nil
        }
        let options = CustomImageLabelerOptions(localModel: localModel)
        return ImageLabeler.imageLabeler(options: options)
    }

    func detector(manifestPath localModelFilePath: String) -> ObjectDetector? {
        var options: CustomObjectDetectorOptions
        guard let localModel = LocalModel(manifestPath: localModelFilePath) else { return nil }
        options = CustomObjectDetectorOptions(localModel: localModel)
        options.shouldEnableClassification = true
        options.maxPerObjectLabelCount = 1
        options.detectorMode = .singleImage
        options.modelDirectory = SeedContext.modelDirectory  // LiteVision: where the built-in detector is
        return ObjectDetector.objectDetector(options: options)
    }
}

/// The apps' observer of download failures, reading the error as an `NSError`.
final class DownloadFailures: Sendable {
    let message = Received<String>()
    let error = Received<NSErrorFields>()

    func remoteModelDownloadDidFail(_ notification: Notification) {
        guard let userInfo = notification.userInfo,
            let remoteModel = userInfo[ModelDownloadUserInfoKey.remoteModel.rawValue] as? RemoteModel,
            let error = userInfo[ModelDownloadUserInfoKey.error.rawValue] as? NSError
        else {
            message.record("The failure notification came without a RemoteModel or an error.")
            return
        }
        message.record("Could not download \(remoteModel.name): \(error.localizedDescription)")
        self.error.record(NSErrorFields(domain: error.domain, code: error.code, message: error.localizedDescription))
    }
}

/// What the test reads of an `NSError`.
struct NSErrorFields: Sendable, Equatable {
    var domain: String
    var code: Int
    var message: String
}

@Suite("Quickstart samples: AutoML manifests, CGRect overlays, NSError, completion handlers")
struct QuickstartSampleTests {
    /// An AutoML bundle of the shared flowers classifier, its manifest in `folder`.
    static func flowersManifest(in folder: URL, modelType: String = "IMAGE_LABELING") throws -> String {
        let path = folder.appendingPathComponent("automl_labeler_manifest.json").path
        let manifest = [
            "modelFile": TestData.model("automl_flowers.tflite"),
            "labelsFile": TestData.model("automl_flowers.labels.txt"), "modelType": modelType,
        ]
        try JSONSerialization.data(withJSONObject: manifest).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test("guard let localModel = LocalModel(manifestPath:): a labeler from a good manifest, nil from a bad one")
    func autoMLManifest() throws {
        let folder = TestData.temporaryDirectory("quickstart-automl")
        defer { try? FileManager.default.removeItem(at: folder) }
        let models = AutoMLModels()
        let labeler = try #require(models.labeler(manifestPath: try Self.flowersManifest(in: folder)))
        let labels = try labeler.results(in: try SeedContext.photo("sunflower.jpg"))
        #expect(labels.first?.text == "sunflowers")
        #expect(models.resultsText.isEmpty)

        #expect(models.labeler(manifestPath: folder.appendingPathComponent("missing.json").path) == nil)
        #expect(models.resultsText == "Failed to load the AutoML local model.")
        let broken = folder.appendingPathComponent("broken.json")
        try Data("{\"labelsFile\": \"dict.txt\"}".utf8).write(to: broken)
        #expect(models.labeler(manifestPath: broken.path) == nil, "no modelFile")
        #expect(models.detector(manifestPath: try Self.flowersManifest(in: folder, modelType: "FACE_MESH")) == nil)
    }

    @Test("Overlay code: normalized CGRects from object.frame's origin and size, CGRect(object.frame), midX")
    func overlays() throws {
        let folder = TestData.temporaryDirectory("quickstart-overlay")
        defer { try? FileManager.default.removeItem(at: folder) }
        // The AutoML app's detector: the built-in detector, the AutoML classifier.
        let detector = try #require(AutoMLModels().detector(manifestPath: try Self.flowersManifest(in: folder)))
        let image = try SeedContext.photo("pets.jpg")
        let objects = try detector.results(in: image)
        #expect(!objects.isEmpty)
        let size = try #require(image.uprightSize)
        let width = CGFloat(size.width)
        let height = CGFloat(size.height)
        let imageBounds = CGRect(x: 0, y: 0, width: width, height: height)
        let viewSize = CGSize(width: 390, height: 844)  // where the preview layer puts the picture
        var drawn: [CGRect] = []
        for object in objects {
            let normalizedRect = CGRect(
                x: object.frame.origin.x / width,
                y: object.frame.origin.y / height,
                width: object.frame.size.width / width,
                height: object.frame.size.height / height
            )
            // The apps convert it with their preview layer; here, a view of `viewSize`.
            let standardizedRect = CGRect(
                x: normalizedRect.origin.x * viewSize.width, y: normalizedRect.origin.y * viewSize.height,
                width: normalizedRect.size.width * viewSize.width, height: normalizedRect.size.height * viewSize.height
            ).standardized
            drawn.append(standardizedRect)

            #expect(CGRect(x: 0, y: 0, width: 1, height: 1).contains(normalizedRect), "\(normalizedRect)")
            let frame = CGRect(object.frame)
            #expect(frame.origin.x == object.frame.origin.x && frame.size.height == object.frame.size.height)
            #expect(abs(frame.midX - object.frame.midX) < 1e-9 && frame.maxY == object.frame.maxY)
            #expect(imageBounds.contains(frame) && object.frame.contains(imageBounds) == false)
            let clipped = object.frame.intersection(imageBounds)
            #expect(abs(clipped.width - frame.width) < 1e-9 && clipped.origin == frame.origin)
            #expect(!object.frame.isEmpty && object.frame.standardized == object.frame)
            let center = CGPoint(x: object.frame.midX, y: object.frame.midY)
            #expect(object.frame.contains(center) && frame.contains(center))
            #expect(!object.frame.contains(CGPoint(x: object.frame.maxX, y: object.frame.midY)))
            #expect("Frame: \(object.frame)".hasPrefix("Frame: ("))
        }
        #expect(drawn.allSatisfy { $0.width > 0 && $0.maxX <= viewSize.width + 1e-9 })
    }

    @Test("A failed download's notification: the error as? NSError, in com.google.mlkit, with LiteVision's message")
    func downloadFailure() throws {
        let server = try LoopbackModelServer(serving: ["mobilenet.tflite": SeedContext.labelerModelPath])
        let cache = TestData.temporaryDirectory("quickstart-failure")
        defer {
            server.stop()
            try? FileManager.default.removeItem(at: cache)
        }
        let failures = DownloadFailures()
        let modelManager = ModelManager(cacheFolder: cache.path)
        let token = NotificationCenter.default.addObserver(
            forName: .mlkitModelDownloadDidFail, object: modelManager, queue: nil
        ) { [weak failures] notification in failures?.remoteModelDownloadDidFail(notification) }
        defer { NotificationCenter.default.removeObserver(token) }

        let remoteModel = CustomRemoteModel(
            remoteModelSource: .url(server.base("missing") + "/mobilenet.tflite", sha256: nil))
        let conditions = ModelDownloadConditions(allowsCellularAccess: true, allowsBackgroundDownloading: false)
        modelManager.download(remoteModel, conditions: conditions)

        let error = try #require(failures.error.wait(seconds: 60), "\(failures.message.wait(seconds: 0) ?? "")")
        #expect(error.domain == "com.google.mlkit" && error.code == 5, "\(error)")  // NOT_FOUND
        #expect(error.message.contains("HTTP 404 for \(server.base("missing"))/mobilenet.tflite"), "\(error.message)")
        #expect(failures.message.wait() == "Could not download mobilenet.tflite: \(error.message)")
    }

    @Test("deleteDownloadedModel(_:completion:) with guard error == nil; the model is gone")
    func deleteDownloaded() async throws {
        let server = try LoopbackModelServer(serving: ["bird.tflite": SeedContext.labelerModelPath])
        let cache = TestData.temporaryDirectory("quickstart-delete")
        defer {
            server.stop()
            try? FileManager.default.removeItem(at: cache)
        }
        let modelManager = ModelManager(cacheFolder: cache.path)
        let remoteModel = CustomRemoteModel(
            remoteModelSource: .url(server.base("ok") + "/bird.tflite", sha256: nil))
        try await modelManager.downloadModel(remoteModel)
        let deleted = Received<String>()
        if modelManager.isModelDownloaded(remoteModel) {
            modelManager.deleteDownloadedModel(remoteModel) { error in
                guard error == nil else {
                    deleted.record("Failed to delete the model.")
                    return
                }
                deleted.record("The downloaded model has been deleted.")
            }
        }
        let outcome = try await onThread { deleted.wait() }
        #expect(outcome == "The downloaded model has been deleted.")
        #expect(!modelManager.isModelDownloaded(remoteModel))
    }

    @Test("Errors shown as the apps show them: error?.localizedDescription and catch let error, LiteVision's message")
    func errorMessages() throws {
        let folder = TestData.temporaryDirectory("quickstart-errors")
        defer { try? FileManager.default.removeItem(at: folder) }
        let missing = folder.appendingPathComponent("missing.tflite").path
        let imageLabeler = ImageLabeler.imageLabeler(
            options: CustomImageLabelerOptions(localModel: LocalModel(path: missing)))
        let shown = Received<String>()
        imageLabeler.process(try SeedContext.photo("bird.jpg")) { labels, error in
            guard error == nil, let labels = labels, !labels.isEmpty else {
                let errorString = error?.localizedDescription ?? "No results returned."
                shown.record("Image labeling failed with error: \(errorString)")
                return
            }
        }
        let processed = try #require(shown.wait())
        #expect(processed.hasPrefix("Image labeling failed with error: Cannot read \(missing)"), "\(processed)")

        // A `catch` after calls throwing different errors sees `any Error`: still LiteVision's message.
        var caught = ""
        do {
            _ = try FileManager.default.attributesOfItem(atPath: TestData.image("bird.jpg"))  // throws any Error
            _ = try imageLabeler.results(in: try SeedContext.photo("bird.jpg"))  // throws VisionError
        } catch let error {
            caught = "Failed to label the image with error: \(error.localizedDescription)."
        }
        #expect(caught.hasPrefix("Failed to label the image with error: Cannot read \(missing)"), "\(caught)")
        #expect(!caught.contains("The operation could not be completed"))
    }
}
