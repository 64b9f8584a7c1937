import Foundation
import LiteVision
import LiteVisionTestSupport
import Testing
import LiteVisionImaging

/// Bad models, files and options: each gets a specific error, never a crash.
@Suite("Labeling bad input")
struct BadInputTests {
    /// Models that break the requirements, written once by Fixtures/make_bad_models.py.
    static let badModels: URL = {
        let folder = TestData.temporaryDirectory("bad-models")
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("Fixtures/make_bad_models.py").path
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", script, TestData.path("models"), folder.path]
        try? process.run()
        process.waitUntilExit()
        precondition(
            process.terminationStatus == 0,
            "make_bad_models.py failed: it needs python3 with ai-edge-litert==2.3.0 (scripts/setup.sh)")
        return folder
    }()

    static let scratch = TestData.temporaryDirectory("bad-input")

    static func write(_ bytes: [UInt8], _ name: String) throws -> String {
        let url = scratch.appendingPathComponent(name)
        try Data(bytes).write(to: url)
        return url.path
    }

    static let birdLabeler: ImageLabeler = {
        try! ImageLabeler(
            options: CustomImageLabelerOptions(localModel: LocalModel(path: TestData.model("bird.tflite"))))
    }()

    /// The bird classifier with MediaPipe's preprocessing, which decodes files as MediaPipe does (stb_image).
    static let birdMediaPipeLabeler: ImageLabeler = {
        let options = CustomImageLabelerOptions(localModel: LocalModel(path: TestData.model("bird.tflite")))
        options.processing.preprocessing = .mediapipe
        return try! ImageLabeler(options: options)
    }()

    func labelFile(
        _ path: String, preprocessing: ProcessingOptions.Preprocessing = .exact
    ) throws(VisionError) -> [ImageLabel] {
        let labeler = preprocessing == .mediapipe ? Self.birdMediaPipeLabeler : Self.birdLabeler
        return try labeler.results(in: try VisionImage(contentsOfFile: path))
    }

    func modelError(_ path: String, labels: String? = nil) -> VisionError? {
        let model = labels.map { LocalModel(path: path, labelsPath: $0) } ?? LocalModel(path: path)
        do {
            _ = try ImageLabeler(options: CustomImageLabelerOptions(localModel: model))
            return nil
        } catch {
            return error
        }
    }

    // MARK: images

    @Test("A missing image file")
    func missingImage() {
        #expect {
            try labelFile("/nonexistent/photo.jpg")
        } throws: { error in
            guard case VisionError.fileNotReadable(_, let reason)? = error as? VisionError else { return false }
            return reason.contains("no such file")
        }
    }

    @Test("An empty image file")
    func emptyImage() throws {
        let path = try Self.write([], "empty.jpg")
        #expect {
            try labelFile(path)
        } throws: { error in
            guard case VisionError.fileNotReadable(_, let reason)? = error as? VisionError else { return false }
            return reason.contains("empty")
        }
    }

    @Test("A text file named .jpg")
    func textAsJPEG() throws {
        let path = try Self.write(Array("hello, this is not a photo\n".utf8), "text.jpg")
        #expect {
            try labelFile(path)
        } throws: { error in
            guard case VisionError.imageDecoding(.unsupportedFormat)? = error as? VisionError else { return false }
            return "\(error)".contains("JPEG")
        }
    }

    @Test(
        "A truncated JPEG and a truncated PNG", arguments: ["jpg", "png"],
        ProcessingOptions.Preprocessing.allCases)
    func truncated(kind: String, preprocessing: ProcessingOptions.Preprocessing) throws {
        let photo = try PhotoFixtures.upright("grace_hopper.jpg")
        let bytes = kind == "jpg" ? try JPEGEncoder.encode(photo) : try PNGEncoder.encode(photo)
        let path = try Self.write(Array(bytes.prefix(bytes.count / 2)), "truncated-\(preprocessing).\(kind)")
        #expect {
            try labelFile(path, preprocessing: preprocessing)
        } throws: { error in
            guard case VisionError.imageDecoding(let decoding)? = error as? VisionError else { return false }
            if case .truncated = decoding { return true }
            if case .corrupt = decoding { return true }
            return false
        }
    }

    @Test(
        "Corrupt JPEG and PNG bytes never crash", arguments: ["jpg", "png"], ProcessingOptions.Preprocessing.allCases)
    func corrupt(kind: String, preprocessing: ProcessingOptions.Preprocessing) throws {
        let photo = try PhotoFixtures.upright("pets.jpg")
        let original = kind == "jpg" ? try JPEGEncoder.encode(photo) : try PNGEncoder.encode(photo)
        var generator = SeededGenerator(seed: 7)
        for round in 0..<20 {
            var bytes = original
            for _ in 0..<8 {
                let at = Int.random(in: 16..<bytes.count, using: &generator)
                bytes[at] = UInt8.random(in: 0...255, using: &generator)
            }
            let path = try Self.write(bytes, "corrupt\(round)-\(preprocessing).\(kind)")
            // Either labels (damage in pixel data a decoder tolerates) or a decoding error; never a crash.
            do {
                _ = try labelFile(path, preprocessing: preprocessing)
            } catch {
                guard case .imageDecoding = error else {
                    Issue.record("unexpected error \(error)")
                    return
                }
            }
        }
    }

    @Test("A 1×1 image is refused with its size named")
    func tinyImage() throws {
        let path = try Self.write(try PNGEncoder.encode(ImageBuffer(width: 1, height: 1, format: .rgb8)), "one.png")
        #expect {
            try labelFile(path)
        } throws: { error in
            guard case VisionError.invalidImage(let reason)? = error as? VisionError else { return false }
            return reason.contains("1x1")
        }
    }

    @Test("A huge declared size is refused before decoding", arguments: ProcessingOptions.Preprocessing.allCases)
    func hugeImage(preprocessing: ProcessingOptions.Preprocessing) throws {
        // A real PNG header claiming 60000x60000 pixels, with a valid CRC, and nothing else.
        var ihdr: [UInt8] = Array("IHDR".utf8)
        for value in [UInt32(60000), UInt32(60000)] { ihdr += withUnsafeBytes(of: value.bigEndian, Array.init) }
        ihdr += [8, 2, 0, 0, 0]
        let crc = CRC32.checksum(ihdr)
        let bytes: [UInt8] =
            [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13] + ihdr
            + withUnsafeBytes(of: crc.bigEndian, Array.init)
        let path = try Self.write(bytes, "huge-\(preprocessing).png")
        #expect {
            try labelFile(path, preprocessing: preprocessing)
        } throws: { error in
            guard case VisionError.imageDecoding(.tooLarge)? = error as? VisionError else { return false }
            return true
        }
    }

    @Test("A pixel buffer whose sizes do not fit its bytes")
    func badPixelBuffer() {
        #expect(throws: VisionError.self) {
            try VisionImage(pixels: [UInt8](repeating: 0, count: 100), width: 64, height: 64, format: .bgra8)
        }
        #expect(throws: VisionError.self) {
            try VisionImage(
                pixels: [UInt8](repeating: 0, count: 64 * 64 * 4), width: 64, height: 64, format: .bgra8,
                bytesPerRow: 10)
        }
        #expect(throws: VisionError.self) {
            try VisionImage(pixels: [], width: 0, height: 64, format: .rgb8)
        }
    }

    // MARK: models

    @Test("A model file that does not exist")
    func missingModel() {
        guard case .fileNotReadable(_, let reason)? = modelError("/nonexistent/model.tflite") else {
            Issue.record("expected fileNotReadable")
            return
        }
        #expect(reason.contains("no such file"))
    }

    @Test("A photo given as a model")
    func notAModel() {
        guard case .invalidModel(_, let reason)? = modelError(TestData.image("bird.jpg")) else {
            Issue.record("expected invalidModel")
            return
        }
        #expect(reason.lowercased().contains("tflite"))
    }

    @Test("A truncated model", arguments: [0.1, 0.5, 0.9])
    func truncatedModel(fraction: Double) throws {
        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: TestData.model("bird.tflite"))))
        let path = try Self.write(
            Array(bytes.prefix(Int(Double(bytes.count) * fraction))), "truncated\(fraction).tflite")
        guard case .invalidModel? = modelError(path) else {
            Issue.record("expected invalidModel for \(fraction)")
            return
        }
    }

    @Test(
        "Models that break the custom-model requirements",
        arguments: [
            ("wrong_input_type.tflite", "uint8 or float32"),
            ("wrong_input_shape.tflite", "[1, height, width, 3]"),
            ("float_without_normalization.tflite", "NormalizationOptions"),
            ("output_3d.tflite", "[1, N]"),
            ("two_inputs.tflite", "exactly one input"),
        ])
    func unsupportedModels(file: String, expected: String) {
        let path = Self.badModels.appendingPathComponent(file).path
        guard case .unsupportedModel(_, let reason)? = modelError(path) else {
            Issue.record("expected unsupportedModel for \(file), got \(String(describing: modelError(path)))")
            return
        }
        #expect(reason.contains(expected), "\(reason)")
    }

    @Test("A detector given as a classifier")
    func detectorAsClassifier() {
        guard case .unsupportedModel(_, let reason)? = modelError(TestData.model("mobile_object_localizer_v1.tflite"))
        else {
            Issue.record("expected unsupportedModel")
            return
        }
        #expect(reason.contains("detector"))
    }

    @Test("A label file whose line count does not match the model")
    func wrongLabelCount() throws {
        let path = try Self.write(Array("one\ntwo\nthree\n".utf8), "three-labels.txt")
        guard case .invalidLabels(_, let reason)? = modelError(TestData.model("automl_flowers.tflite"), labels: path)
        else {
            Issue.record("expected invalidLabels")
            return
        }
        #expect(reason.contains("3 labels"))
    }

    @Test("A missing runtime library is a clear setup error")
    func missingRuntime() throws {
        let options = CustomImageLabelerOptions(localModel: LocalModel(path: TestData.model("bird.tflite")))
        options.processing.runtimeLibraryPath = "/nonexistent/libLiteRt.so"
        #expect {
            try ImageLabeler(options: options)
        } throws: { error in
            guard case VisionError.runtimeUnavailable? = error as? VisionError else { return false }
            return "\(error)".contains("/nonexistent/libLiteRt.so")
                && "\(error)".contains("pip install ai-edge-litert==2.3.0")
        }
    }
}

/// CRC-32 (as in PNG chunks), for building test headers.
enum CRC32 {
    static func checksum(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = (crc >> 1) ^ (0xEDB8_8320 & (0 &- (crc & 1))) }
        }
        return ~crc
    }
}
