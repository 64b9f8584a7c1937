import Foundation
import LiteVisionTestSupport
import Testing

/// Models with control flow, made by the tests (``ControlFlowModels``), run by the real runtime through
/// `litevision label`: a loop that ends gives its scores; one that provably never ends, or nests deeper than the
/// runtime's stack, is refused with the verifier's reason; one that only running can show is endless is stopped by
/// `--inference-timeout` (the library's side is LiteVisionTests' `ControlFlowModelTests`).
@Suite("Control flow in models on the command line: refused, or stopped by the inference deadline")
struct ControlFlowModelCLITests {
    @Test("a loop that ends runs in LiteRT and gives its scores")
    func countingLoopRuns() throws {
        let (folder, model, labels) = try ControlFlowModels.write(ControlFlowModels.classifier(), name: "counting")
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try LiteVisionExecutable.run(
            ["label", "--json", "--model", model, "--labels", labels, TestData.image("bird.jpg")])
        #expect(result.status == 0, "\(result.errors)")
        #expect(result.output.contains("\"text\":\"first\""), "\(result.output)")
        #expect(result.output.contains("0.78125"), "200/256: \(result.output)")
    }

    @Test("litevision label stops the endless loop at --inference-timeout with a message")
    func stuckLoopStoppedOnTheCommandLine() throws {
        let (folder, model, labels) = try ControlFlowModels.write(
            ControlFlowModels.classifier(loop: .stuck), name: "stuck")
        defer { try? FileManager.default.removeItem(at: folder) }
        let started = ContinuousClock.now
        let result = try LiteVisionExecutable.run(
            ["label", "--inference-timeout", "1", "--model", model, "--labels", labels, TestData.image("bird.jpg")])
        #expect(result.status != 0)
        #expect(result.errors.contains("within its 1.0 s inference deadline"), "\(result.errors)")
        #expect(ContinuousClock.now - started < .seconds(10))
        let bad = try LiteVisionExecutable.run([
            "label", "--inference-timeout=-2", "--model", model, TestData.image("bird.jpg"),
        ])
        #expect(bad.status == 64 && bad.errors.contains("--inference-timeout must be"), "\(bad.errors)")
    }

    @Test(
        "provably endless loops and deep nesting are refused before the runtime sees them",
        arguments: [
            (ControlFlowModels.Loop.constantTrue, 0, "its condition (subgraph 1) is the constant true"),
            (.unchangedCondition, 0, "which its body (subgraph 2) passes on unchanged"),
            (.counting, 65, "nest subgraphs 65 deep"),
            (.counting, 50_000, "the model has 50003 subgraphs; LiteVision accepts at most 1000"),
        ])
    func refused(loop: ControlFlowModels.Loop, chain: Int, reason: String) throws {
        let (folder, model, labels) = try ControlFlowModels.write(
            ControlFlowModels.classifier(loop: loop, chain: chain), name: "hostile")
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try LiteVisionExecutable.runMeasuringMemory(
            ["label", "--model", model, "--labels", labels, TestData.image("bird.jpg")])
        #expect(run.status == 2, "a clear refusal (an unusable model), not a signal: \(run.status) \(run.errors)")
        #expect(run.errors.contains(reason), "\(run.errors)")
        #expect(run.peakMegabytes < 1000)
    }
}
