// swift-format-ignore-file
// (The snippets are kept exactly as the seed guide writes them; the formatter would respace them.)
//
// The Swift snippets of the seed guide "Label images with a custom model on iOS" (004), verbatim. Its input
// image snippets are in CameraInputSnippets.swift, its hosted-model snippets in HostedModelSnippets.swift, and
// its bundled-model line is CustomObjectDetectionSnippets's (the same line). Lines ending in `// seed-test` are
// the test's own, inside a snippet; every other line of a snippet is the seed's.
import Foundation
import LiteVision
import LiteVisionModelManager
import LiteVisionTestSupport
import Testing

@Suite("Seed snippets: image labeling with a custom model (004)")
struct CustomImageLabelingSnippets {
    let localModel = LocalModel(path: SeedContext.labelerModelPath)

    @Test("Options through a let constant, NSNumber threshold, imageLabeler(options:) without try")
    func bundled() throws {
let options = CustomImageLabelerOptions(localModel: localModel)
options.confidenceThreshold = NSNumber(value: 0.0)
let imageLabeler = ImageLabeler.imageLabeler(options: options)

        #expect(imageLabeler.confidenceThreshold == 0)
        #expect(try imageLabeler.results(in: try SeedContext.photo("bird.jpg")).count == 10)
    }

    @Test("Remote model if downloaded, else the bundled one")
    func remoteOrLocal() throws {
        let remoteModel = CustomRemoteModel(remoteModelSource: FirebaseModelSource(name: "your_remote_model"))

var options: CustomImageLabelerOptions!
if (ModelManager.modelManager().isModelDownloaded(remoteModel)) {
  options = CustomImageLabelerOptions(remoteModel: remoteModel)
} else {
  options = CustomImageLabelerOptions(localModel: localModel)
}
options.confidenceThreshold = NSNumber(value: 0.0)
let imageLabeler = ImageLabeler.imageLabeler(options: options)

        #expect(options.localModel == localModel, "no remote model is downloaded here")
        #expect(try imageLabeler.results(in: try SeedContext.photo("bird.jpg")).first?.index == 567)
    }

    @Test("process with optional labels, results(in:) into var labels, then each label")
    func labeling() throws {
        let imageLabeler = ImageLabeler.imageLabeler(options: CustomImageLabelerOptions(localModel: localModel))
        let image = try SeedContext.photo("bird.jpg")
        let received = Received<Int>()

imageLabeler.process(image) { labels, error in
    guard error == nil, let labels = labels, !labels.isEmpty else {
        // Handle the error.
        return
    }
    // Show results.
    received.record(labels[0].index)  // seed-test
}

        #expect(received.wait() == 567)
        var texts: [String] = []
        func label() {

var labels: [ImageLabel]
do {
    labels = try imageLabeler.results(in: image)
} catch let error {
    // Handle the error.
    return
}
// Show results.

for label in labels {
  let labelText = label.text
  let confidence = label.confidence
  let index = label.index
  texts.append("\(index) \(labelText) \(confidence)")  // seed-test
}
        }
        label()
        #expect(texts.first?.hasPrefix("567 Ardea cinerea") == true, "\(texts)")
    }
}
