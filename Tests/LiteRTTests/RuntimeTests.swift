import Foundation
import LiteRT
import LiteVisionSystem
import LiteVisionTestSupport
import Testing

@Suite("LiteRT runtime")
struct RuntimeTests {
    @Test("The runtime loads, and a missing runtime is a setup error, not a skip")
    func loads() throws {
        // A missing runtime must fail this test loudly with the list of places tried.
        let runtime = try Runtime.shared()
        #expect(runtime.libraryPath.hasSuffix("libLiteRt.so"))
        #expect(try Runtime.shared() === runtime)
    }

    @Test("A bad explicit path lists where it looked and how to install")
    func badPath() throws {
        let error = #expect(throws: RuntimeLoadError.self) {
            try Runtime.load(libraryPath: "/nonexistent/libLiteRt.so")
        }
        let text = try #require(error).description
        #expect(text.contains("/nonexistent/libLiteRt.so"))
        #expect(text.contains("no such file"))
        #expect(text.contains("pip install ai-edge-litert==2.3.0"))
    }

    @Test("A library that is not LiteRT is refused with the missing symbol named")
    func notLiteRt() throws {
        let error = #expect(throws: RuntimeLoadError.self) {
            try Runtime.load(libraryPath: "libz.so.1")
        }
        #expect(try #require(error).description.contains("does not export LiteRtCreateModelFromFd"))
    }

    @Test("A model file replaced after its bytes were read and verified is not loaded")
    func replacedAfterVerification() throws {
        let runtime = try Runtime.shared()
        let folder = TestData.temporaryDirectory("replaced-model")
        let path = folder.appendingPathComponent("model.tflite").path
        try FileManager.default.copyItem(atPath: TestData.model("bird.tflite"), toPath: path)
        let verified = try #require(FileIdentity(path: path))
        _ = try Model(runtime: runtime, path: path, expectedIdentity: verified)
        // Another model renamed over it (what a sync tool or another process might do between the two opens).
        let other = folder.appendingPathComponent("other.tflite").path
        try FileManager.default.copyItem(atPath: TestData.model("automl_flowers.tflite"), toPath: other)
        #expect(rename(other, path) == 0)
        #expect {
            try Model(runtime: runtime, path: path, expectedIdentity: verified)
        } throws: { error in
            "\(error)".contains("the file changed after it was read and verified")
        }
    }

    @Test("bird.tflite compiles with the signature its file declares, and runs")
    func compileAndRun() throws {
        let runtime = try Runtime.shared()
        let model = try Model(runtime: runtime, path: TestData.model("bird.tflite"))
        let compiled = try CompiledModel(model: model, options: CompilationOptions(threadCount: 2))
        #expect(compiled.inputs.count == 1)
        #expect(compiled.inputs[0].shape == [1, 224, 224, 3])
        #expect(compiled.inputs[0].elementType == .uint8)
        #expect(compiled.outputs.count == 1)
        #expect(compiled.outputs[0].shape == [1, 965])
        #expect(compiled.outputs[0].elementType == .uint8)
        let quantization = try #require(compiled.outputs[0].quantization)
        #expect(quantization.scale > 0)
        try compiled.withInput(0) { buffer in
            #expect(buffer.count >= 224 * 224 * 3)
            buffer.initializeMemory(as: UInt8.self, repeating: 128)
        }
        try compiled.run()
        let scores = try compiled.withOutput(0) { Array($0.prefix(965)) }
        // A gray image gives some non-zero probabilities, none of them certain.
        #expect(scores.contains { $0 != 0 })
        #expect(scores.allSatisfy { Float($0) * quantization.scale < 0.9 })
    }

    @Test("A model loaded from memory gives the same answer as from the file")
    func fromMemory() throws {
        let runtime = try Runtime.shared()
        let bytes = try Data(contentsOf: URL(fileURLWithPath: TestData.model("automl_flowers.tflite")))
        let fromMemory = try bytes.withUnsafeBytes { try Model(runtime: runtime, bytes: $0) }
        let fromFile = try Model(runtime: runtime, path: TestData.model("automl_flowers.tflite"))
        var results: [[UInt8]] = []
        for model in [fromMemory, fromFile] {
            let compiled = try CompiledModel(model: model, options: CompilationOptions(threadCount: 1))
            try compiled.withInput(0) { buffer in
                for i in 0..<buffer.count { buffer[i] = UInt8(truncatingIfNeeded: i &* 31 >> 3) }
            }
            try compiled.run()
            results.append(try compiled.withOutput(0) { Array($0.prefix(5)) })
        }
        #expect(results[0] == results[1])
        #expect(results[0].contains { $0 != 0 })
    }

    @Test("A corrupt model file is a named runtime error")
    func corruptModel() throws {
        let runtime = try Runtime.shared()
        let error = #expect(throws: LiteRTError.self) {
            try Model(runtime: runtime, path: TestData.image("bird.jpg"))
        }
        #expect(try #require(error).description.contains("load the model"))
    }
}
