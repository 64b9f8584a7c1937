import Foundation
import LiteVisionTestSupport
import Testing

/// Models made hostile on purpose, given to `litevision label`: a clear error, and the process stays small
/// (its peak memory measured from its own rusage).
@Suite("Hostile models on the command line: a clear error in bounded memory")
struct HostileModelCLITests {
    static func folder(_ name: String) -> URL { TestData.temporaryDirectory("hostile-\(name)") }

    @Test("A tensor dimension turned from 224 into 1,048,588 is refused before the runtime allocates it")
    func hugeDeclaredTensor() throws {
        let bird = Array(try Data(contentsOf: URL(fileURLWithPath: TestData.model("bird.tflite"))))
        let bytes = try #require(DamagedFiles.birdWithHugeInput(bird))
        let folder = Self.folder("tensor")
        defer { try? FileManager.default.removeItem(at: folder) }
        let model = folder.appendingPathComponent("huge.tflite").path
        try Data(bytes).write(to: URL(fileURLWithPath: model))
        let run = try LiteVisionExecutable.runMeasuringMemory(
            ["label", "--model", model, TestData.image("bird.jpg")])
        #expect(run.status != 0)
        #expect(run.errors.contains("larger than the 268435456-byte limit"), "\(run.errors)")
        #expect(run.peakMegabytes < 1000, "peak memory \(run.peakMegabytes) MB")
    }

    @Test("A label file in the model's zip that inflates to 80 MB is refused before it is inflated")
    func labelFileBomb() throws {
        let folder = Self.folder("bomb")
        defer { try? FileManager.default.removeItem(at: folder) }
        let model = folder.appendingPathComponent("bomb.tflite").path
        // bird.tflite's FlatBuffer with a new zip whose label files are 80 MB of line breaks (about 80 KB deflated).
        let script = """
            import io, sys, zipfile
            data = open(sys.argv[1], "rb").read()
            flat = data[:data.find(b"PK\\x03\\x04")]
            archive = io.BytesIO()
            with zipfile.ZipFile(archive, "w", zipfile.ZIP_DEFLATED) as out:
                for name in ("0-labels-en.txt", "0-labels.txt"):
                    out.writestr(name, b"\\n" * (80 << 20))
            open(sys.argv[2], "wb").write(flat + archive.getvalue())
            """
        let made = try LiteVisionExecutable.run(
            ["python3", "-c", script, TestData.model("bird.tflite"), model], program: "/usr/bin/env")
        #expect(made.status == 0, "\(made.errors)")
        let size = try #require(try FileManager.default.attributesOfItem(atPath: model)[.size] as? Int)
        #expect(size < 4_000_000, "the bomb is small on disk (\(size) bytes)")
        let run = try LiteVisionExecutable.runMeasuringMemory(
            ["label", "--model", model, TestData.image("bird.jpg")])
        #expect(run.status != 0)
        #expect(run.errors.contains("more than the 67108864 bytes an associated file may have"), "\(run.errors)")
        #expect(run.peakMegabytes < 1000, "peak memory \(run.peakMegabytes) MB")
    }

    @Test("A label file on disk one byte over 64 MiB is refused before it is read")
    func hugeLabelFile() throws {
        let folder = Self.folder("labels")
        defer { try? FileManager.default.removeItem(at: folder) }
        let labels = folder.appendingPathComponent("labels.txt").path
        // Sparse: 64 MiB + 1 of zeros costs no disk.
        #expect(FileManager.default.createFile(atPath: labels, contents: nil))
        #expect(truncate(labels, off_t(64 << 20) + 1) == 0)
        let command = ["label", "--model", TestData.model("automl_flowers.tflite"), "--labels"]
        let run = try LiteVisionExecutable.runMeasuringMemory(command + [labels, TestData.image("daisy.jpeg")])
        #expect(run.status == 2, "\(run.errors)")
        #expect(
            run.errors.contains(labels) && run.errors.contains("larger than the 67108864-byte limit"), "\(run.errors)")
        // The same command with the model's own label file: reading the big one would add 64 MiB to its peak.
        let control = try LiteVisionExecutable.runMeasuringMemory(
            command + [TestData.model("automl_flowers.labels.txt"), TestData.image("daisy.jpeg")])
        #expect(control.status == 0, "\(control.errors)")
        #expect(
            run.peakMegabytes < control.peakMegabytes + 32,
            "peak \(run.peakMegabytes) MB, \(control.peakMegabytes) MB with a small label file: the file was read")
    }
}
