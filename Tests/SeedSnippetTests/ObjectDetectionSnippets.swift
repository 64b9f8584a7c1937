// swift-format-ignore-file
// (The snippets are kept exactly as the seed guide writes them; the formatter would respace them.)
//
// The Swift snippets of the seed guide "Detect and track objects with ML Kit on iOS" (002), verbatim; its input
// image snippets are in CameraInputSnippets.swift. Lines ending in `// seed-test` are the test's own, inside a
// snippet (scaffolding between alternatives, recording a result); every other line of a snippet is the seed's.
import Foundation
import LiteVision
import LiteVisionTestSupport
import Testing

@Suite("Seed snippets: object detection (002)")
struct ObjectDetectionSnippets {
    @Test("Options configured through let constants")
    func options() {
do {  // seed-test
// Live detection and tracking
let options = ObjectDetectorOptions()
options.shouldEnableClassification = true
#expect(options.detectorMode == .stream && options.shouldEnableClassification)  // seed-test
}  // seed-test
do {  // seed-test

// Multiple object detection in static images
let options = ObjectDetectorOptions()
options.detectorMode = .singleImage
options.shouldEnableMultipleObjects = true
options.shouldEnableClassification = true
#expect(options.detectorMode == .singleImage && options.shouldEnableMultipleObjects)  // seed-test
}  // seed-test
    }

    @Test("objectDetector() and objectDetector(options:), without try")
    func detectors() throws {
        let options = ObjectDetectorOptions()
        options.modelDirectory = SeedContext.modelDirectory
        let photo = try SeedContext.photo("pets.jpg")
do {  // seed-test
let objectDetector = ObjectDetector.objectDetector()
// The default detector is the detector of default options: same answer, or same error.  // seed-test
let reference = ObjectDetector.objectDetector(options: ObjectDetectorOptions())  // seed-test
#expect((try? objectDetector.results(in: photo)) == (try? reference.results(in: photo)))  // seed-test
#expect(objectDetector.loadError.map { "\($0)" } == reference.loadError.map { "\($0)" })  // seed-test
}  // seed-test

// Or, to change the default settings:
let objectDetector = ObjectDetector.objectDetector(options: options)
        #expect(objectDetector.loadError == nil)
        #expect(try objectDetector.results(in: photo).count == 1)
    }

    @Test("process(_:completion:) with a non-optional array, as the guide writes it")
    func processCompletion() throws {
        let options = ObjectDetectorOptions()
        options.modelDirectory = SeedContext.modelDirectory
        options.detectorMode = .singleImage
        let objectDetector = ObjectDetector.objectDetector(options: options)
        let image = try SeedContext.photo("pets.jpg")
        let received = Received<Int>()

objectDetector.process(image) { objects, error in
  guard error == nil else {
    // Error.
    return
  }
  guard !objects.isEmpty else {
    // No objects detected.
    return
  }

  // Success. Get object info here.
  // ...
  received.record(objects.count)  // seed-test
}

        #expect(received.wait() == 1)
    }

    @Test("results(in:) into var objects: [Object], then reading each object")
    func synchronousResults() throws {
        let options = ObjectDetectorOptions()
        options.modelDirectory = SeedContext.modelDirectory
        options.shouldEnableMultipleObjects = true
        options.shouldEnableClassification = true
        let objectDetector = ObjectDetector.objectDetector(options: options)
        let image = try SeedContext.photo("burger.jpg")
        var descriptions: [String] = []
        var detected: [Object] = []
        func detect() {

var objects: [Object]
do {
  objects = try objectDetector.results(in: image)
} catch let error {
  print("Failed to detect object with error: \(error.localizedDescription).")
  return
}
guard !objects.isEmpty else {
  print("Object detector returned no results.")
  return
}

// Success. Get object info here.
detected = objects  // seed-test

// objects contains one item if multiple object detection wasn't enabled.
for object in objects {
  let frame = object.frame
  let trackingID = object.trackingID

  // If classification was enabled:
  let description = object.labels.enumerated().map { (index, label) in
    "Label \(index): \(label.text), \(label.confidence)"
    }.joined(separator:"\n")

  descriptions.append("\(frame) \(trackingID.map { "\($0)" } ?? "-") \(description)")  // seed-test
}
        }
        detect()
        let objects = detected

        #expect(descriptions.count == objects.count)
        #expect(descriptions.contains { $0.contains("Label 0: Food") }, "\(descriptions)")
    }

    @Test("A detector whose models cannot load reports it through results(in:) and process")
    func badModel() throws {
        let options = ObjectDetectorOptions()
        options.detectorModel = LocalModel(path: SeedContext.modelDirectory + "/no-such-model.tflite")
        let objectDetector = ObjectDetector.objectDetector(options: options)
        let image = try SeedContext.photo("pets.jpg")
        #expect(objectDetector.loadError != nil)
        #expect(throws: VisionError.self) { try objectDetector.results(in: image) }
        let received = Received<Bool>()
        objectDetector.process(image) { objects, error in received.record(objects == nil && error != nil) }
        #expect(received.wait() == true)
        #expect(throws: VisionError.self) { try ObjectDetector(options: options) }
    }
}
