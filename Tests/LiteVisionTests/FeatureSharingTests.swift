@testable import LiteVision
import Foundation
import LiteVisionTestSupport
import LiteVisionVideo
import Testing

/// ML Kit's samples make fresh options and call `objectDetector(options:)` on every camera frame
/// (googlesamples/mlkit, `ios/quickstarts/vision/VisionExample/CameraViewController.swift`,
/// `captureOutput` → `detectObjectsOnDevice`); equal options must give the same detector, so that tracking works.
@Suite("Equal options give the same feature")
struct FeatureSharingTests {
    // Features are shared by the whole test process: each test writes its models folder in its own way
    // (`models/./`, `models/./.`), so that no other test's options equal its own and no other test's frames
    // reach its tracker.

    /// Options made the samples' way, fresh for every frame.
    static func samplesOptions(modelDirectory: String) -> ObjectDetectorOptions {
        let options = ObjectDetectorOptions()
        options.shouldEnableClassification = false
        options.shouldEnableMultipleObjects = false
        options.detectorMode = .stream
        options.modelDirectory = modelDirectory
        return options
    }

    @Test("The samples' per-frame pattern tracks as a detector kept for the whole video does")
    func perFramePattern() throws {
        let directory = TestData.path("models") + "/./"
        let kept = try ObjectDetector(options: Self.samplesOptions(modelDirectory: directory))
        let decoder = try VideoDecoder(path: TestData.path("video/cup.mp4"))
        var ids: [Int] = []
        var frames = 0
        var first: ObjectDetector?
        while let frame = try decoder.nextFrame() {
            frames += 1
            let image = VisionImage(buffer: frame.image, orientation: decoder.info.orientation)
            // The sample's code: fresh options, a detector from the factory, results.
            let detector = ObjectDetector.objectDetector(options: Self.samplesOptions(modelDirectory: directory))
            if first == nil { first = detector }
            #expect(detector === first, "frame \(frames): a new detector")
            let objects = try detector.results(in: image)
            let expected = try kept.results(in: image)
            #expect(objects == expected, "frame \(frames)")
            ids += objects.compactMap(\.trackingID)
        }
        #expect(frames > 100)
        let counts = Dictionary(grouping: ids, by: { $0 }).mapValues(\.count)
        #expect(Double(counts.values.max() ?? 0) >= 0.9 * Double(frames), "ID counts: \(counts)")
    }

    @Test("Different options give independent detectors; init(options:) never shares")
    func differentOptions() throws {
        let directory = TestData.path("models") + "/./."
        let options = Self.samplesOptions(modelDirectory: directory)
        let a = ObjectDetector.objectDetector(options: options)
        #expect(a.loadError == nil)
        #expect(ObjectDetector.objectDetector(options: Self.samplesOptions(modelDirectory: directory)) === a)
        options.shouldEnableMultipleObjects = true
        let b = ObjectDetector.objectDetector(options: options)
        #expect(b !== a)
        options.shouldEnableMultipleObjects = false
        options.frameCoordinates = .cameraBuffer
        #expect(ObjectDetector.objectDetector(options: options) !== a)
        let own = try ObjectDetector(options: Self.samplesOptions(modelDirectory: directory))
        #expect(own !== a)
        #expect(ObjectDetector.objectDetector(options: Self.samplesOptions(modelDirectory: directory)) === a)
    }

    /// Custom options with the classifier at `path`.
    static func classifierOptions(_ path: String) -> CustomObjectDetectorOptions {
        let options = CustomObjectDetectorOptions(localModel: LocalModel(path: path))
        options.shouldEnableClassification = true
        options.modelDirectory = TestData.path("models")
        return options
    }

    @Test("A custom classifier: equal models share, a model replaced on disk gives a new detector")
    func modelIdentity() throws {
        let folder = TestData.temporaryDirectory("feature-sharing")
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("classifier.tflite").path
        try FileManager.default.copyItem(atPath: TestData.model("mobilenet_v1_025_float.tflite"), toPath: path)
        func options() -> CustomObjectDetectorOptions { Self.classifierOptions(path) }
        let first = ObjectDetector.objectDetector(options: options())
        #expect(first.loadError == nil)
        #expect(ObjectDetector.objectDetector(options: options()) === first)
        // Another model file under the same path.
        try FileManager.default.removeItem(atPath: path)
        try FileManager.default.copyItem(atPath: TestData.model("object_labeler.tflite"), toPath: path)
        let replaced = ObjectDetector.objectDetector(options: options())
        #expect(replaced !== first)
        #expect(replaced.loadError == nil)
        #expect(ObjectDetector.objectDetector(options: options()) === replaced)
    }

    @Test("A detector whose model is missing is not kept: once the model is there, the next call loads it")
    func failedLoadIsNotKept() throws {
        let folder = TestData.temporaryDirectory("feature-sharing-missing")
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("later.tflite").path
        func options() -> CustomObjectDetectorOptions { Self.classifierOptions(path) }
        let missing = ObjectDetector.objectDetector(options: options())
        #expect(missing.loadError != nil)
        #expect(ObjectDetector.objectDetector(options: options()) !== missing)
        try FileManager.default.copyItem(atPath: TestData.model("mobilenet_v1_025_float.tflite"), toPath: path)
        let loaded = ObjectDetector.objectDetector(options: options())
        #expect(loaded.loadError == nil)
        #expect(ObjectDetector.objectDetector(options: options()) === loaded)
    }

    @Test("Labelers: equal options share one labeler, with the same labels as a kept one")
    func labelers() throws {
        func options() -> CustomImageLabelerOptions {
            let options = CustomImageLabelerOptions(
                localModel: LocalModel(path: TestData.path("models") + "/./bird.tflite"))
            options.confidenceThreshold = 0.01
            return options
        }
        let kept = try ImageLabeler(options: options())
        let first = ImageLabeler.imageLabeler(options: options())
        #expect(first !== kept)
        for name in ["bird.jpg", "beach.jpg"] {
            let image = try VisionImage(contentsOfFile: TestData.image(name))
            let labeler = ImageLabeler.imageLabeler(options: options())
            #expect(labeler === first)
            #expect(try labeler.results(in: image) == kept.results(in: image))
        }
        let other = options()
        other.maxResultCount = 3
        #expect(ImageLabeler.imageLabeler(options: other) !== first)
    }

    /// A stand-in feature for the cache's own rules.
    final class Feature: Sendable {}

    @Test("The cache keeps features while held, and the most recently used ones when nobody holds them")
    func cacheRules() {
        let cache = FeatureCache<Int, Feature>(recentLimit: 2)
        weak var dropped: Feature?
        do {
            let made = cache.feature(for: 1, files: [], make: { Feature() }, keep: { _ in true })
            dropped = made
        }
        // Kept alive as recently used, and found again.
        #expect(dropped != nil)
        #expect(cache.feature(for: 1, files: [], make: { Feature() }, keep: { _ in true }) === dropped)
        // Two newer features push it out of the recent list; nobody holds it, so it is gone.
        _ = cache.feature(for: 2, files: [], make: { Feature() }, keep: { _ in true })
        _ = cache.feature(for: 3, files: [], make: { Feature() }, keep: { _ in true })
        #expect(dropped == nil)
        #expect(cache.count == 2)
        // A feature the caller holds is found however many others came since.
        let held = cache.feature(for: 4, files: [], make: { Feature() }, keep: { _ in true })
        for key in 5..<10 { _ = cache.feature(for: key, files: [], make: { Feature() }, keep: { _ in true }) }
        #expect(cache.feature(for: 4, files: [], make: { Feature() }, keep: { _ in true }) === held)
        // Another file identity is another key; a feature refused by `keep` is not found again.
        let refused = cache.feature(for: 20, files: [nil], make: { Feature() }, keep: { _ in false })
        #expect(cache.feature(for: 20, files: [nil], make: { Feature() }, keep: { _ in true }) !== refused)
    }
}
