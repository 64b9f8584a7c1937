import Foundation
import LiteVision
import LiteVisionTestSupport
import Testing

/// Models with control flow, made by the tests (``ControlFlowModels``), run by the real runtime through the library:
/// a loop that only running can show is endless is stopped by the inference deadline (the command line's side is
/// LiteVisionCLITests' `ControlFlowModelCLITests`).
@Suite("Control flow in models: stopped by the library's inference deadline")
struct ControlFlowModelTests {
    @Test("an inference timeout of 0 means no limit in the library too, as on the command line")
    func zeroMeansNoLimit() throws {
        let (folder, model, labels) = try ControlFlowModels.write(ControlFlowModels.classifier(), name: "counting")
        defer { try? FileManager.default.removeItem(at: folder) }
        let options = CustomImageLabelerOptions(localModel: LocalModel(path: model, labelsPath: labels))
        options.processing.inferenceTimeout = 0
        let results = try ImageLabeler(options: options).results(
            in: try VisionImage(contentsOfFile: TestData.image("bird.jpg")))
        #expect(results.first?.text == "first", "the loop's operators ran past a deadline of 0: \(results)")
    }

    @Test("a loop only running shows endless is stopped by the library's inference deadline")
    func stuckLoopStoppedInTheLibrary() throws {
        let (folder, model, labels) = try ControlFlowModels.write(
            ControlFlowModels.classifier(loop: .stuck), name: "stuck")
        defer { try? FileManager.default.removeItem(at: folder) }
        let options = CustomImageLabelerOptions(localModel: LocalModel(path: model, labelsPath: labels))
        options.processing.inferenceTimeout = 0.5
        let labeler = try ImageLabeler(options: options)
        let image = try VisionImage(contentsOfFile: TestData.image("bird.jpg"))
        let started = ContinuousClock.now
        let error = try #require(throws: VisionError.self) { try labeler.results(in: image) }
        let elapsed = ContinuousClock.now - started
        guard case .runtime(let runtimeError) = error else {
            Issue.record("expected a runtime error, got \(error)")
            return
        }
        #expect(runtimeError.status == 100, "\(runtimeError)")
        #expect("\(error)".contains("within its 0.5 s inference deadline"), "\(error)")
        #expect(elapsed >= .milliseconds(450) && elapsed < .seconds(3), "\(elapsed)")
        // The labeler stays usable: the next call is stopped the same way, not hung.
        #expect(throws: VisionError.self) { try labeler.results(in: image) }
    }
}
