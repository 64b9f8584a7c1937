import ArgumentParser
import Foundation
import LiteVisionCommandSupport
import LiteVisionTestSupport
import Testing

/// `label` and `detect` with an empty list of images (issue 24): today's message and status 2, said before the
/// model is fetched or loaded. ArgumentParser never passes an empty list from a command line (IMAGE is required),
/// so the commands' `run` is called here, in process, with standard error captured.
@Suite("litevision label and detect: no image", .serialized)
struct NoImageCLITests {
    /// A model path that does not exist: loading it would print an error naming it.
    static func missingModel() -> (folder: URL, path: String) {
        let folder = TestData.temporaryDirectory("no-image")
        return (folder, folder.appendingPathComponent("missing.tflite").path)
    }

    @Test("label: no image is said before the model is loaded")
    func label() throws {
        let (folder, model) = Self.missingModel()
        defer { try? FileManager.default.removeItem(at: folder) }
        var arguments = try LabelArguments.parse(["--model", model, "photo.jpg"])
        arguments.images = []
        let (thrown, errors) = try StandardError.capture { try arguments.run() }
        #expect((thrown as? ExitCode) == ExitCode(2), "\(String(describing: thrown))")
        #expect(
            errors.contains(
                "litevision: no images given (folders are searched for .jpg, .jpeg and .png files)\n"), "\(errors)")
        #expect(!errors.contains("missing.tflite"), "the model was loaded: \(errors)")
    }

    @Test("detect: no image is said before the model is loaded")
    func detect() throws {
        let (folder, model) = Self.missingModel()
        defer { try? FileManager.default.removeItem(at: folder) }
        var arguments = try DetectArguments.parse(["--model", model, "photo.jpg"])
        arguments.images = []
        let (thrown, errors) = try StandardError.capture { try arguments.run(annotator: nil) }
        #expect((thrown as? ExitCode) == ExitCode(2), "\(String(describing: thrown))")
        #expect(errors.contains("litevision: no images given\n"), "\(errors)")
        #expect(!errors.contains("missing.tflite"), "the model was loaded: \(errors)")
    }
}

/// Standard error (file descriptor 2) of this process, captured in a file while a body runs.
enum StandardError {
    /// Runs `body` with descriptor 2 on a temporary file; returns what `body` threw, if anything, and what was
    /// written to standard error meanwhile.
    static func capture(_ body: () throws -> Void) throws -> (thrown: (any Error)?, text: String) {
        let file = TestData.temporaryDirectory("stderr").appendingPathComponent("stderr.txt")
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        let descriptor = open(file.path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        let saved = dup(2)
        try #require(descriptor >= 0 && saved >= 0, "cannot capture standard error")
        dup2(descriptor, 2)
        close(descriptor)
        var thrown: (any Error)?
        do { try body() } catch { thrown = error }
        dup2(saved, 2)
        close(saved)
        return (thrown, try String(contentsOf: file, encoding: .utf8))
    }
}
