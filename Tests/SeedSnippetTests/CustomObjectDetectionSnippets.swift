// swift-format-ignore-file
// (The snippets are kept exactly as the seed guide writes them; the formatter would respace them.)
//
// The Swift snippets of the seed guide "Detect, track and classify objects with a custom classification model on
// iOS" (000; 001 is the same guide in Persian and 003 in Japanese, with the same code), verbatim. Its input
// image snippets are in CameraInputSnippets.swift, its hosted-model snippets in HostedModelSnippets.swift.
// Lines ending in `// seed-test` are the test's own, inside a snippet (scaffolding between alternatives,
// context, recording a result); every other line of a snippet is the seed's.
import Foundation
import LiteVision
import LiteVisionModelManager
import LiteVisionTestSupport
import Testing

@Suite("Seed snippets: object detection with a custom classifier (000, 001, 003)")
struct CustomObjectDetectionSnippets {
    let localModelFilePath = SeedContext.detectorClassifierPath

    /// The guide's bundled model.
    var localModel: LocalModel {
    let localModel = LocalModel(path: localModelFilePath)
        return localModel
    }

    @Test("Custom options through a let constant, NSNumber threshold; labels obey threshold and count")
    func bundledOptions() throws {
let options = CustomObjectDetectorOptions(localModel: localModel)
options.detectorMode = .singleImage
options.shouldEnableClassification = true
options.shouldEnableMultipleObjects = true
options.classificationConfidenceThreshold = NSNumber(value: 0.5)
options.maxPerObjectLabelCount = 3

        options.modelDirectory = SeedContext.modelDirectory
        let objectDetector = ObjectDetector.objectDetector(options: options)
        var labelled = 0
        for name in ["burger.jpg", "pets.jpg", "img_meal_one.jpg", "kite_and_cold.jpg"] {
            for object in try objectDetector.results(in: try SeedContext.photo(name)) {
                #expect(object.labels.count <= 3)
                #expect(object.labels.allSatisfy { $0.confidence >= 0.5 }, "\(object.labels)")
                #expect(object.labels.map(\.confidence) == object.labels.map(\.confidence).sorted(by: >))
                if !object.labels.isEmpty { labelled += 1 }
            }
        }
        #expect(labelled > 0, "some object was classified at 0.5 or more")
    }

    @Test("Remote model if downloaded, else the bundled one (an implicitly unwrapped var)")
    func remoteOrLocal() throws {
        let remoteModel = CustomRemoteModel(remoteModelSource: FirebaseModelSource(name: "your_remote_model"))

var options: CustomObjectDetectorOptions!
if (ModelManager.modelManager().isModelDownloaded(remoteModel)) {
  options = CustomObjectDetectorOptions(remoteModel: remoteModel)
} else {
  options = CustomObjectDetectorOptions(localModel: localModel)
}
options.detectorMode = .singleImage
options.shouldEnableClassification = true
options.shouldEnableMultipleObjects = true
options.classificationConfidenceThreshold = NSNumber(value: 0.5)
options.maxPerObjectLabelCount = 3

        #expect(options.localModel?.path == localModelFilePath, "no remote model is downloaded here")
        #expect(options.classificationConfidenceThreshold == 0.5 && options.maxPerObjectLabelCount == 3)
    }

    @Test("Stream and single-image alternatives")
    func alternatives() {
do {  // seed-test
// Live detection and tracking
let options = CustomObjectDetectorOptions(localModel: localModel)
options.shouldEnableClassification = true
options.maxPerObjectLabelCount = 3
#expect(options.detectorMode == .stream && !options.shouldEnableMultipleObjects)  // seed-test
}  // seed-test
do {  // seed-test

// Multiple object detection in static images
let options = CustomObjectDetectorOptions(localModel: localModel)
options.detectorMode = .singleImage
options.shouldEnableMultipleObjects = true
options.shouldEnableClassification = true
options.maxPerObjectLabelCount = 3
#expect(options.detectorMode == .singleImage && options.maxPerObjectLabelCount == 3)  // seed-test
}  // seed-test
    }

    /// Options as the guide makes them, with the built-in detector's folder.
    func options() -> CustomObjectDetectorOptions {
        let options = CustomObjectDetectorOptions(localModel: localModel)
        options.shouldEnableClassification = true
        options.shouldEnableMultipleObjects = true
        options.detectorMode = .singleImage
        options.modelDirectory = SeedContext.modelDirectory
        return options
    }

    @Test("objectDetector(options:) without try, process with optional arrays")
    func processCompletion() throws {
        let options = options()
        let image = try SeedContext.photo("burger.jpg")
        let received = Received<Int>()

    let objectDetector = ObjectDetector.objectDetector(options: options)

    objectDetector.process(image) { objects, error in
        guard error == nil, let objects = objects, !objects.isEmpty else {
            // Handle the error.
            return
        }
        // Show results.
        received.record(objects.count)  // seed-test
    }

        #expect((received.wait() ?? 0) >= 1)
    }

    @Test("results(in:) into var objects: [Object], then each object's frame, ID and labels")
    func synchronousResults() throws {
        let objectDetector = ObjectDetector.objectDetector(options: options())
        let image = try SeedContext.photo("burger.jpg")
        var descriptions: [String] = []
        var detected: [Object] = []
        func detect() {

    var objects: [Object]
    do {
        objects = try objectDetector.results(in: image)
    } catch let error {
        // Handle the error.
        return
    }
    // Show results.
            detected = objects  // seed-test
        }
        detect()
        let objects = detected

// objects contains one item if multiple object detection wasn't enabled.
for object in objects {
  let frame = object.frame
  let trackingID = object.trackingID
  let description = object.labels.enumerated().map { (index, label) in
    "Label \(index): \(label.text), \(label.confidence), \(label.index)"
  }.joined(separator: "\n")
  descriptions.append("\(frame) \(trackingID.map { "\($0)" } ?? "-") \(description)")  // seed-test
}

        #expect(!descriptions.isEmpty && descriptions.allSatisfy { $0.contains("Label 0: ") }, "\(descriptions)")
        #expect(descriptions.allSatisfy { $0.contains(" - ") }, "single-image mode: no tracking IDs")
    }
}
