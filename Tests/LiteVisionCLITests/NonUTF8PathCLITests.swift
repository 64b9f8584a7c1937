import Foundation
import LiteVisionTestSupport
import Testing

/// Files whose names are not UTF-8 (a byte 0xFF), named directly on the command line: processed by `label`,
/// `detect` and `track` (through `litevision-media`), their names printed with the byte as `\x{FF}`.
@Suite("File names that are not UTF-8, named on the command line, are processed")
struct NonUTF8PathCLITests {
    /// Copies `source` to `folder/<stem>\xFF<ext>` and runs `litevision` with `arguments`, in which `@FILE`
    /// stands for that name (given as bytes: Swift's `Process` can only pass UTF-8). Python does both.
    static func run(
        copying source: String, as stem: String, _ ext: String, in folder: URL, _ arguments: [String]
    ) throws -> (status: Int32, output: String, errors: String) {
        let script = """
            import os, shutil, subprocess, sys
            target = os.fsencode(sys.argv[2]) + b"/" + os.fsencode(sys.argv[3]) + b"\\xff" + os.fsencode(sys.argv[4])
            shutil.copyfile(os.fsencode(sys.argv[1]), target)
            arguments = [target if a == "@FILE" else a for a in sys.argv[6:]]
            done = subprocess.run([sys.argv[5]] + arguments, capture_output=True, timeout=600)
            sys.stdout.buffer.write(done.stdout); sys.stderr.buffer.write(done.stderr)
            sys.exit(done.returncode)
            """
        return try LiteVisionExecutable.run(
            ["python3", "-c", script, source, folder.path, stem, ext, LiteVisionExecutable.path] + arguments,
            program: "/usr/bin/env")
    }

    @Test("label and detect process bird\\xFF.jpg and name it bird\\x{FF}.jpg")
    func photos() throws {
        let folder = TestData.temporaryDirectory("non-utf8")
        defer { try? FileManager.default.removeItem(at: folder) }
        let expected = folder.path + #"/bird\x{FF}.jpg"#
        let label = try Self.run(
            copying: TestData.image("bird.jpg"), as: "bird", ".jpg", in: folder,
            ["label", "--model", TestData.model("bird.tflite"), "@FILE"])
        #expect(label.status == 0, "\(label.errors)")
        #expect(label.output.hasPrefix(expected + "\n"), "\(label.output)")
        #expect(label.output.contains("Grey Heron"), "\(label.output)")

        let detect = try Self.run(
            copying: TestData.image("bird.jpg"), as: "bird", ".jpg", in: folder,
            ["detect", "--json", "--model-dir", TestData.path("models"), "@FILE"])
        #expect(detect.status == 0, "\(detect.errors)")
        let object = try JSONSerialization.jsonObject(with: Data(detect.output.utf8)) as? [String: Any]
        #expect(object?["file"] as? String == expected, "\(detect.output)")
        #expect((object?["objects"] as? [Any])?.isEmpty == false, "\(detect.output)")
    }

    @Test("track (litevision-media) processes cup\\xFF.mp4")
    func video() throws {
        let folder = TestData.temporaryDirectory("non-utf8-video")
        defer { try? FileManager.default.removeItem(at: folder) }
        let json = folder.appendingPathComponent("cup.jsonl").path
        let track = try Self.run(
            copying: TestData.path("video/cup.mp4"), as: "cup", ".mp4", in: folder,
            ["track", "--json", json, "--model-dir", TestData.path("models"), "@FILE"])
        #expect(track.status == 0, "\(track.errors)")
        let lines = try String(contentsOfFile: json, encoding: .utf8).split(separator: "\n")
        #expect(lines.count > 100)
        let first = try JSONSerialization.jsonObject(with: Data(lines[0].utf8)) as? [String: Any]
        #expect(first?["source"] as? String == folder.path + #"/cup\x{FF}.mp4"#, "\(lines[0])")
    }

    @Test(
        "two inputs whose names differ only in such bytes are both processed; an output that repairs like an input is refused"
    )
    func namesThatRepairAlike() throws {
        let folder = TestData.temporaryDirectory("non-utf8-alike")
        defer { try? FileManager.default.removeItem(at: folder) }
        // bird\xFF.jpg and bird\xFE.jpg (a copy made by python), both named: two results, in order.
        let script = """
            import os, shutil, subprocess, sys
            names = [os.fsencode(sys.argv[2]) + b"/bird" + byte + b".jpg" for byte in (b"\\xff", b"\\xfe")]
            for name in names: shutil.copyfile(os.fsencode(sys.argv[1]), name)
            mode = sys.argv[4]
            arguments = ["label", "--model", sys.argv[5]] + names if mode == "inputs" else \\
                ["detect", "--json", "--model-dir", sys.argv[6], "--annotate", names[1], names[0]]
            done = subprocess.run([sys.argv[3]] + arguments, capture_output=True, timeout=600)
            sys.stdout.buffer.write(done.stdout); sys.stderr.buffer.write(done.stderr)
            sys.exit(done.returncode)
            """
        func run(_ mode: String) throws -> (status: Int32, output: String, errors: String) {
            try LiteVisionExecutable.run(
                [
                    "python3", "-c", script, TestData.image("bird.jpg"), folder.path, LiteVisionExecutable.path, mode,
                    TestData.model("bird.tflite"), TestData.path("models"),
                ], program: "/usr/bin/env")
        }
        let inputs = try run("inputs")
        #expect(inputs.status == 0, "\(inputs.errors)")
        #expect(
            inputs.output.contains(#"bird\x{FF}.jpg"#) && inputs.output.contains(#"bird\x{FE}.jpg"#), "\(inputs.output)"
        )
        let outputAlike = try run("output")
        #expect(outputAlike.status != 0)
        #expect(outputAlike.errors.contains("cannot be told which file is meant"), "\(outputAlike.errors)")
    }
}
