import Foundation
import LiteVisionTestSupport
import Testing

/// `--preprocessing exact|mediapipe` on `label`, `detect` and `track`.
@Suite("litevision --preprocessing")
struct PreprocessingCLITests {
    @Test("label: mediapipe gives MediaPipe's heron score from the file (0.984375), exact the reference's (0.97...)")
    func label() throws {
        let arguments = ["label", "--json", "--max-results", "1", "--model", TestData.model("bird.tflite")]
        let mediapipe = try LiteVisionExecutable.run(
            arguments + ["--preprocessing", "mediapipe", TestData.image("bird.jpg")])
        let exact = try LiteVisionExecutable.run(arguments + ["--preprocessing", "exact", TestData.image("bird.jpg")])
        let implicit = try LiteVisionExecutable.run(arguments + [TestData.image("bird.jpg")])
        #expect(mediapipe.status == 0 && exact.status == 0, "\(mediapipe.errors)\(exact.errors)")
        // MediaPipe 1.2.2: ImageClassifier on Image.create_from_file("bird.jpg") (0.98046875 from Pillow's pixels).
        #expect(mediapipe.output.contains("0.984375"), "\(mediapipe.output)")
        #expect(!exact.output.contains("0.984375"), "\(exact.output)")
        #expect(implicit.output == exact.output)
    }

    @Test("detect: mediapipe gives MediaPipe's localizer scores from pets.jpg (0.82421875 and 0.71875)")
    func detect() throws {
        let result = try LiteVisionExecutable.run([
            "detect", "--json", "--multiple", "--model-dir", TestData.path("models"), "--preprocessing", "mediapipe",
            TestData.image("pets.jpg"),
        ])
        #expect(result.status == 0, "\(result.errors)")
        #expect(result.output.contains("0.82421875") && result.output.contains("0.71875"), "\(result.output)")
    }

    @Test("An unknown mode is refused with the option and its values named", arguments: ["label", "detect", "track"])
    func unknownMode(command: String) throws {
        let result = try LiteVisionExecutable.run([command, "--preprocessing", "bilinear", TestData.image("pets.jpg")])
        #expect(result.status == 64)
        #expect(result.errors.contains("--preprocessing") && result.errors.contains("mediapipe"), "\(result.errors)")
        #expect(result.output.isEmpty)
    }
}
