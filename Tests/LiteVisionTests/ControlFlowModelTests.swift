import Foundation
import LiteVision
import LiteVisionTestSupport
import Testing

/// Models with control flow, made by the tests (``ControlFlowModels``), run by the real runtime through the library
/// and `litevision label`: a loop that ends gives its scores; one that provably never ends, or nests deeper than the
/// runtime's stack, is refused with the verifier's reason; one that only running can show is endless is stopped by
/// the inference deadline.
@Suite("Control flow in models: refused, or stopped by the inference deadline")
struct ControlFlowModelTests {
    /// Writes `bytes` and the model's labels into a new folder; returns the model's and the labels' paths.
    static func write(_ bytes: [UInt8], name: String) throws -> (folder: URL, model: String, labels: String) {
        let folder = TestData.temporaryDirectory("control-flow")
        let model = folder.appendingPathComponent("\(name).tflite").path
        let labels = folder.appendingPathComponent("labels.txt").path
        try Data(bytes).write(to: URL(fileURLWithPath: model))
        try Data(ControlFlowModels.labels.utf8).write(to: URL(fileURLWithPath: labels))
        return (folder, model, labels)
    }

    @Test("a loop that ends runs in LiteRT and gives its scores")
    func countingLoopRuns() throws {
        let (folder, model, labels) = try Self.write(ControlFlowModels.classifier(), name: "counting")
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try LiteVisionExecutable.run(
            ["label", "--json", "--model", model, "--labels", labels, TestData.image("bird.jpg")])
        #expect(result.status == 0, "\(result.errors)")
        #expect(result.output.contains("\"text\":\"first\""), "\(result.output)")
        #expect(result.output.contains("0.78125"), "200/256: \(result.output)")
    }

    @Test("an inference timeout of 0 means no limit in the library too, as on the command line")
    func zeroMeansNoLimit() throws {
        let (folder, model, labels) = try Self.write(ControlFlowModels.classifier(), name: "counting")
        defer { try? FileManager.default.removeItem(at: folder) }
        let options = CustomImageLabelerOptions(localModel: LocalModel(path: model, labelsPath: labels))
        options.processing.inferenceTimeout = 0
        let results = try ImageLabeler(options: options).results(
            in: try VisionImage(contentsOfFile: TestData.image("bird.jpg")))
        #expect(results.first?.text == "first", "the loop's operators ran past a deadline of 0: \(results)")
    }

    @Test("a loop only running shows endless is stopped by the library's inference deadline")
    func stuckLoopStoppedInTheLibrary() throws {
        let (folder, model, labels) = try Self.write(ControlFlowModels.classifier(loop: .stuck), name: "stuck")
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

    @Test("litevision label stops the endless loop at --inference-timeout with a message")
    func stuckLoopStoppedOnTheCommandLine() throws {
        let (folder, model, labels) = try Self.write(ControlFlowModels.classifier(loop: .stuck), name: "stuck")
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
        let (folder, model, labels) = try Self.write(
            ControlFlowModels.classifier(loop: loop, chain: chain), name: "hostile")
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try LiteVisionExecutable.runMeasuringMemory(
            ["label", "--model", model, "--labels", labels, TestData.image("bird.jpg")])
        #expect(run.status == 2, "a clear refusal (an unusable model), not a signal: \(run.status) \(run.errors)")
        #expect(run.errors.contains(reason), "\(run.errors)")
        #expect(run.peakMegabytes < 1000)
    }
}

/// A registry address with a password: every message shows it masked.
@Suite("A password in a registry URL is never printed")
struct RegistryPasswordCLITests {
    @Test("label --remote-model with user:password@ in --registry, nothing listening")
    func maskedInErrors() throws {
        let cache = TestData.temporaryDirectory("password-cache")
        defer { try? FileManager.default.removeItem(at: cache) }
        let result = try LiteVisionExecutable.run(
            [
                "label", "--remote-model", "birds", "--registry", "http://reader:s3cr3t-pw@127.0.0.1:9/",
                "--cache", cache.path, TestData.image("bird.jpg"),
            ])
        #expect(result.status != 0)
        #expect(result.errors.contains("reader:***@127.0.0.1:9"), "\(result.errors)")
        #expect(!result.errors.contains("s3cr3t") && !result.output.contains("s3cr3t"), "\(result.errors)")
    }
}
