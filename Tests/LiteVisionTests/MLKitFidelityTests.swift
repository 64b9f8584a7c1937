import Dispatch
import Foundation
import LiteVision
import LiteVisionImaging
import LiteVisionModelManager
import LiteVisionTestSupport
import LiteVisionVideo
import Synchronization
import Testing

/// Behaviour that must match ML Kit's (issue 8, point 3), and the options' snapshot rule.
@Suite("ML Kit fidelity")
struct MLKitFidelityTests {
    static let objectLabeler = LocalModel(path: TestData.model("object_labeler.tflite"))

    @Test("CustomObjectDetectorOptions: classification off by default, and then objects have no labels")
    func customClassificationOffByDefault() throws {
        let options = CustomObjectDetectorOptions(localModel: Self.objectLabeler)
        #expect(!options.shouldEnableClassification)
        #expect(
            !CustomObjectDetectorOptions(
                remoteModel: CustomRemoteModel(
                    remoteModelSource: FirebaseModelSource(name: "birds"))
            ).shouldEnableClassification)
        options.detectorMode = .singleImage
        options.shouldEnableMultipleObjects = true
        options.modelDirectory = TestData.path("models")
        let image = try VisionImage(contentsOfFile: TestData.image("burger.jpg"))
        let off = try ObjectDetector(options: options).results(in: image)
        #expect(!off.isEmpty)
        #expect(off.allSatisfy { $0.labels.isEmpty })
        options.shouldEnableClassification = true
        let on = try ObjectDetector(options: options).results(in: image)
        #expect(on.contains { !$0.labels.isEmpty }, "the same options with classification on do classify")
    }

    /// Runs cup.mp4 through a stream-mode detector classifying with the object labeler; every frame's objects.
    static func cupLabels(threshold: Double?, maxLabels: Int) throws -> [[ObjectLabel]] {
        let options = CustomObjectDetectorOptions(localModel: objectLabeler)
        options.shouldEnableClassification = true
        options.classificationConfidenceThreshold = threshold.map { NSNumber(value: $0) }
        options.maxPerObjectLabelCount = maxLabels
        options.classificationInterval = 2
        options.modelDirectory = TestData.path("models")
        let detector = try ObjectDetector(options: options)
        let decoder = try VideoDecoder(path: TestData.path("video/cup.mp4"))
        var labels: [[ObjectLabel]] = []
        while let frame = try decoder.nextFrame() {
            let image = VisionImage(buffer: frame.image, orientation: decoder.info.orientation)
            labels += try detector.results(in: image).map(\.labels)
        }
        return labels
    }

    @Test("Stream mode on cup.mp4: smoothed labels respect the threshold and the count, highest first")
    func streamLabelsFollowOptions() throws {
        let unfiltered = try Self.cupLabels(threshold: 0, maxLabels: 10)
        // Without the limits, smoothing gives labels below 0.3 and more than two per object: the limits matter.
        #expect(unfiltered.contains { $0.contains { $0.confidence < 0.3 } })
        #expect(unfiltered.contains { $0.count > 2 })
        for labels in unfiltered {
            #expect(labels.map(\.confidence) == labels.map(\.confidence).sorted(by: >), "\(labels)")
        }

        let filtered = try Self.cupLabels(threshold: 0.3, maxLabels: 2)
        #expect(filtered.contains { !$0.isEmpty }, "the mug is labelled")
        for labels in filtered {
            #expect(labels.count <= 2, "\(labels)")
            #expect(labels.allSatisfy { $0.confidence >= 0.3 }, "\(labels)")
            #expect(labels.map(\.confidence) == labels.map(\.confidence).sorted(by: >), "\(labels)")
        }
    }

    @Test("A detector and a labeler take a copy of their options: later changes have no effect")
    func optionsSnapshot() throws {
        let options = ObjectDetectorOptions()
        options.detectorMode = .singleImage
        options.modelDirectory = TestData.path("models")
        let detector = ObjectDetector.objectDetector(options: options)
        options.detectorMode = .stream
        options.detectionThreshold = 1
        let image = try VisionImage(contentsOfFile: TestData.image("pets.jpg"))
        let objects = try detector.results(in: image)
        #expect(objects.count == 1)
        #expect(objects.allSatisfy { $0.trackingID == nil }, "still single-image mode")

        let labelerOptions = CustomImageLabelerOptions(localModel: LocalModel(path: TestData.model("bird.tflite")))
        labelerOptions.confidenceThreshold = 0
        let labeler = ImageLabeler.imageLabeler(options: labelerOptions)
        labelerOptions.maxResultCount = 1
        labelerOptions.confidenceThreshold = NSNumber(value: 0.99)
        #expect(try labeler.results(in: try VisionImage(contentsOfFile: TestData.image("bird.jpg"))).count == 10)
    }

    @Test("VisionImage(contentsOfFile:) applies EXIF orientation; a user orientation overrides it")
    func exifAndOverride() throws {
        let folder = TestData.temporaryDirectory("fidelity-exif")
        defer { try? FileManager.default.removeItem(at: folder) }
        let upright = try VisionImage(contentsOfFile: TestData.image("grace_hopper.jpg")).uprightPixels()
        // Stored turned a quarter to the left, with EXIF 6 (turn right to view): what a phone writes.
        let stored = Resampler.orient(upright, .left)
        let path = folder.appendingPathComponent("sideways.jpg").path
        try Data(try JPEGEncoder.encode(stored, quality: 95, exifOrientation: ImageOrientation.right.exifValue))
            .write(to: URL(fileURLWithPath: path))

        let image = try VisionImage(contentsOfFile: path)
        #expect(image.imageOrientation == .right && image.orientation == .right)
        #expect(image.uprightSize?.width == upright.width && image.uprightSize?.height == upright.height)
        let labeler = try ImageLabeler(options: CustomImageLabelerOptions(localModel: Self.objectLabeler))
        let expected = try labeler.results(in: VisionImage(buffer: upright))
        #expect(try labeler.results(in: image).first?.index == expected.first?.index)

        // The override is used as is, not combined with EXIF: `.up` processes the stored (sideways) pixels.
        image.orientation = .up
        #expect(image.imageOrientation == .right)
        #expect(image.uprightSize?.width == stored.width && image.uprightSize?.height == stored.height)
        let sideways = try labeler.results(in: image)
        #expect(sideways == (try labeler.results(in: VisionImage(buffer: stored))))
    }

    /// Marks the main queue, to tell whether a block runs on it (on Linux the main queue may be drained by a
    /// thread other than the process's first one).
    static let mainQueueKey: DispatchSpecificKey<Bool> = {
        let key = DispatchSpecificKey<Bool>()
        DispatchQueue.main.setSpecific(key: key, value: true)
        return key
    }()

    static func isMainQueue() -> Bool { DispatchQueue.getSpecific(key: mainQueueKey) == true }

    /// Runs `program` (built next to the tests) with `arguments`; its output.
    static func run(_ program: String, _ arguments: [String]) throws -> String {
        let folder = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        let executable = [folder, folder.deletingLastPathComponent()].map {
            $0.appendingPathComponent(program).path
        }.first { FileManager.default.isExecutableFile(atPath: $0) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try #require(executable, "\(program) is built"))
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        return text.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Runs MainQueueCallbackProbe's `process` in `mode`: where the completion ran, and the top label.
    static func probe(_ mode: String) throws -> String {
        try run("MainQueueCallbackProbe", ["process", TestData.model("bird.tflite"), TestData.image("bird.jpg"), mode])
    }

    @Test("Completion handlers: on the main queue in a program with a main loop, else on a background queue")
    func completionQueue() throws {
        #expect(try Self.probe("serviced") == "main 567")
        #expect(try Self.probe("blocked") == "background 567")
    }

    @Test("deleteDownloadedModel(_:completion:) follows process's rule: main queue with a main loop, else background")
    func deleteCompletionQueue() async throws {
        let server = try LoopbackModelServer(serving: ["bird.tflite": TestData.model("bird.tflite")])
        let cache = TestData.temporaryDirectory("delete-queue")
        defer {
            server.stop()
            try? FileManager.default.removeItem(at: cache)
        }
        let url = server.base("ok") + "/bird.tflite"
        let sha256 = "79510633209226cbb86b356be5a743e554c01789acd939d73d1fcf8d5b64416f"  // bird.tflite's
        let manager = ModelManager(cacheFolder: cache.path)
        let model = CustomRemoteModel(remoteModelSource: .url(url, sha256: sha256))
        for (mode, queue) in [("serviced", "main"), ("blocked", "background")] {
            try await manager.downloadModel(model)
            #expect(manager.isModelDownloaded(model))
            // The probe deletes the model a real download installed, and says where its completion ran.
            let output = try await onThread {
                try Self.run("MainQueueCallbackProbe", ["delete", cache.path, url, sha256, mode])
            }
            #expect(output == "\(queue) deleted")
            #expect(!manager.isModelDownloaded(model))
        }
    }

    @Test("The porting guide's example program tracks the mug of cup.mp4 read through the live frame source")
    func portedExample() throws {
        let output = try Self.run(
            "litevision-track-example", [TestData.path("video/cup.mp4"), TestData.path("models")])
        let lines = output.split(separator: "\n")
        let tracked = lines.filter { $0.contains(": object ") }
        #expect(tracked.count > 20, "\(output.prefix(2000))")
        let ids = Set(tracked.compactMap { $0.split(separator: " ").dropFirst(3).first })
        #expect(ids.count <= 3, "one mug, few IDs: \(ids)")
        #expect(lines.last?.hasSuffix("late frames dropped") == true)
    }

    @Test("Completion handlers: an explicit queue is used")
    func completionOnGivenQueue() async throws {
        let labeler = try ImageLabeler(
            options: CustomImageLabelerOptions(localModel: LocalModel(path: TestData.model("bird.tflite"))))
        let image = try VisionImage(contentsOfFile: TestData.image("bird.jpg"))
        let queue = DispatchQueue(label: "litevision-test-completion")
        let key = DispatchSpecificKey<Int>()
        queue.setSpecific(key: key, value: 8)
        let onQueue = await withCheckedContinuation { continuation in
            labeler.process(image, queue: queue) { _, _ in
                continuation.resume(returning: DispatchQueue.getSpecific(key: key))
            }
        }
        #expect(onQueue == 8)
    }

    @Test("Completion handlers: on a background queue while the main thread waits for them (no deadlock)")
    func completionWhileMainBlocked() async throws {
        _ = Self.mainQueueKey
        let labeler = ImageLabeler.imageLabeler(
            options: CustomImageLabelerOptions(localModel: LocalModel(path: TestData.model("bird.tflite"))))
        let image = try VisionImage(contentsOfFile: TestData.image("bird.jpg"))
        let result = await MainActor.run { () -> (arrived: Bool, onMain: Bool) in
            let received = DispatchSemaphore(value: 0)
            let onMain = Mutex(true)
            labeler.process(image) { _, _ in
                onMain.withLock { $0 = Self.isMainQueue() }
                received.signal()
            }
            // The main thread blocks here, as a program without a main loop would.
            let arrived = received.wait(timeout: .now() + 60) == .success
            return (arrived, onMain.withLock { $0 })
        }
        #expect(result.arrived, "the completion ran although the main thread was blocked")
        #expect(!result.onMain)
    }
}
