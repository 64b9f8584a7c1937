import Foundation
import LiteVisionTestSupport
import Testing

/// The `litevision` executable, run as a user would.
@Suite("litevision label")
struct CLITests {
    @Test("A table with the heron first")
    func table() throws {
        let result = try LiteVisionExecutable.run([
            "label", "--model", TestData.model("bird.tflite"), TestData.image("bird.jpg"),
        ])
        #expect(result.status == 0, "\(result.errors)")
        let lines = result.output.split(separator: "\n")
        #expect(lines.first?.hasSuffix("bird.jpg") == true)
        #expect(lines.dropFirst().first?.contains("Ardea cinerea (Grey Heron)") == true)
    }

    @Test("JSON lines with ML Kit's field names; a bad file is one error line and the batch goes on")
    func jsonBatch() throws {
        let folder = TestData.temporaryDirectory("cli")
        defer { try? FileManager.default.removeItem(at: folder) }
        let bad = folder.appendingPathComponent("notes.jpg")
        try Data("not a photo".utf8).write(to: bad)
        let result = try LiteVisionExecutable.run([
            "label", "--json", "--model", TestData.model("automl_flowers.tflite"),
            "--labels", TestData.model("automl_flowers.labels.txt"), "--max-results", "2",
            TestData.image("daisy.jpeg"), bad.path, TestData.image("roses.jpeg"),
        ])
        #expect(result.status == 1)
        let objects = try result.output.split(separator: "\n").map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
        #expect(objects.count == 3)
        let daisy = try #require(objects[0]["labels"] as? [[String: Any]])
        #expect(daisy.count == 2)
        #expect(daisy[0]["text"] as? String == "daisy")
        #expect(daisy[0]["index"] as? Int == 0)
        #expect((daisy[0]["confidence"] as? Double ?? 0) > 0.5)
        #expect((objects[1]["error"] as? String)?.contains("not a JPEG or PNG") == true || objects[1]["error"] != nil)
        #expect((objects[2]["labels"] as? [[String: Any]])?.first?["text"] as? String == "roses")
        let errorLines = result.errors.split(separator: "\n").filter { $0.contains("notes.jpg") }
        #expect(errorLines.count == 1)
    }

    @Test("label loads no video, drawing or server library (the dynamic loader's own list of the files it maps)")
    func labelStartsLight() throws {
        let folder = TestData.temporaryDirectory("cli-loader")
        defer { try? FileManager.default.removeItem(at: folder) }
        // The trace goes to files (LD_DEBUG_OUTPUT.PID): the command silences standard error while the runtime loads.
        let result = try LiteVisionExecutable.run(
            ["label", "--model", TestData.model("bird.tflite"), TestData.image("grace_hopper.jpg")],
            environment: ["LD_DEBUG": "files", "LD_DEBUG_OUTPUT": folder.appendingPathComponent("trace").path])
        #expect(result.status == 0, "\(result.errors)")
        let trace = try FileManager.default.contentsOfDirectory(atPath: folder.path).map {
            try String(contentsOf: folder.appendingPathComponent($0), encoding: .utf8)
        }.joined()
        // Lines such as "  1234:     file=libturbojpeg.so.0 [0];  needed by ./litevision [0]".
        let mapped = Set(
            trace.split(separator: "\n").compactMap { line -> String? in
                guard let range = line.range(of: "file=") else { return nil }
                return String(line[range.upperBound...].prefix { $0 != " " })
            })
        #expect(mapped.contains { $0.hasPrefix("libturbojpeg") }, "the loader's trace was not read: \(mapped)")
        #expect(mapped.contains { $0.hasSuffix("libLiteRt.so") }, "the runtime was not loaded: \(mapped)")
        let heavy = mapped.filter { name in
            ["libav", "libsw", "libcairo", "libX11", "libpango", "libgnutls", "libsqlite", "libFoundation.so"].contains
            {
                name.contains($0)
            }
        }
        #expect(heavy.isEmpty, "label mapped \(heavy.sorted())")
        #expect(mapped.count < 30, "label mapped \(mapped.count) files: \(mapped.sorted())")
    }

    /// Starts the program at `path` (standard output discarded, standard error on a pipe). A program copied just
    /// now may be refused for a moment with ETXTBSY ("text file busy"): a child that another test starts meanwhile
    /// holds the copy's descriptor, open for writing, between its fork and its exec. It is started again then.
    static func start(_ path: String, _ arguments: [String]) throws -> (process: Process, errors: Pipe) {
        var attempt = 0
        while true {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: path)
            process.arguments = arguments
            let errors = Pipe()
            process.standardError = errors
            process.standardOutput = FileHandle.nullDevice
            do {
                try process.run()
                return (process, errors)
            } catch let error as NSError
                where attempt < 100 && (error.userInfo[NSUnderlyingErrorKey] as? NSError)?.code == Int(ETXTBSY)
            {
                attempt += 1
                usleep(20_000)
            }
        }
    }

    @Test("track without litevision-media next to litevision: exit 2 naming the missing program and how to build it")
    func missingMediaProgram() throws {
        let folder = TestData.temporaryDirectory("cli-alone")
        defer { try? FileManager.default.removeItem(at: folder) }
        let copy = folder.appendingPathComponent("litevision").path
        try FileManager.default.copyItem(atPath: LiteVisionExecutable.path, toPath: copy)
        let (process, errors) = try Self.start(copy, ["track", TestData.path("video/cup.mp4")])
        let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 2)
        #expect(text.contains(folder.path + "/litevision-media cannot be started"), "\(text)")
        #expect(text.contains("swift build -c release --product litevision-media"), "\(text)")
    }

    @Test("A folder is labeled file by file, in name order")
    func folder() throws {
        let result = try LiteVisionExecutable.run([
            "label", "--json", "--threshold", "0.3", "--model", TestData.model("bird.tflite"),
            TestData.path("images"),
        ])
        #expect(result.status == 0, "\(result.errors)")
        let files = result.output.split(separator: "\n").compactMap {
            (try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])?["file"] as? String
        }
        #expect(files.count == TestData.imageNames.count)
        #expect(files.map { ($0 as NSString).lastPathComponent } == TestData.imageNames)
    }

    @Test(
        "Out-of-range options are refused with the option named",
        arguments: [
            (["--threshold", "1.5"], "--threshold"), (["--threshold", "-0.1"], "--threshold"),
            (["--max-results", "0"], "--max-results"), (["--threads", "0"], "--threads"),
        ])
    func badOptions(arguments: [String], option: String) throws {
        let result = try LiteVisionExecutable.run(
            ["label", "--model", TestData.model("bird.tflite")] + arguments + [TestData.image("bird.jpg")])
        #expect(result.status != 0)
        #expect(result.errors.contains(option))
        #expect(result.output.isEmpty)
    }

    @Test("A bad model stops before any image, with the reason")
    func badModel() throws {
        let result = try LiteVisionExecutable.run([
            "label", "--model", TestData.image("bird.jpg"), TestData.image("bird.jpg"),
        ])
        #expect(result.status == 2)
        #expect(result.errors.contains("not a valid TFLite model"))
    }
}
