import Foundation
import LiteVisionTestSupport
import Testing

/// Text from outside — a model's labels, file names, a server's error sentence — printed by `litevision`,
/// `litevision-media` (`track`) and `litevision-registry`: its control characters come out escaped (`\u{1B}`),
/// never raw, while JSON output keeps the exact texts (JSON escapes).
@Suite("Terminal escapes in labels, file names and server messages are printed escaped")
struct TerminalEscapeCLITests {
    /// What every label of the hostile models starts with: an OSC that retitles the terminal (ended by BEL), a
    /// C1 CSI (U+009B) and a right-to-left override (U+202E).
    static let hostile = "\u{1B}]0;pwned\u{7}\u{9B}31m\u{202E}"
    static let hostileEscaped = #"\u{1B}]0;pwned\u{7}\u{9B}31m\u{202E}"#

    /// Whether `text` holds a character that acts on a terminal: C0 other than the line feed, DEL, C1, U+202E.
    static func hasRawControl(_ text: String) -> Bool {
        text.unicodeScalars.contains {
            ($0.value < 0x20 && $0 != "\n") || (0x7F...0x9F).contains($0.value) || $0.value == 0x202E
        }
    }

    /// A copy of the shared model `name` in `folder` whose label files (in the zip after its FlatBuffer) have
    /// ``hostile`` before every label.
    static func hostileModel(_ name: String, in folder: URL) throws -> String {
        let model = folder.appendingPathComponent("hostile-" + name).path
        let script = """
            import io, sys, zipfile
            data = open(sys.argv[1], "rb").read()
            start = data.find(b"PK\\x03\\x04")
            assert start > 0, "the model has no associated files"
            source = zipfile.ZipFile(io.BytesIO(data[start:]))
            archive = io.BytesIO()
            prefix = sys.argv[3].encode()
            with zipfile.ZipFile(archive, "w") as out:
                for info in source.infolist():
                    content = source.read(info)
                    if info.filename.endswith(".txt"):
                        content = b"\\n".join(prefix + line if line.strip() else line for line in content.split(b"\\n"))
                    out.writestr(info.filename, content)
            open(sys.argv[2], "wb").write(data[:start] + archive.getvalue())
            """
        let made = try LiteVisionExecutable.run(
            ["python3", "-c", script, TestData.model(name), model, hostile], program: "/usr/bin/env")
        try #require(made.status == 0, "\(made.errors)")
        return model
    }

    @Test("label: a model's labels holding escape sequences are printed escaped; --json keeps the exact texts")
    func labelTexts() throws {
        let folder = TestData.temporaryDirectory("escape-labels")
        defer { try? FileManager.default.removeItem(at: folder) }
        let model = try Self.hostileModel("bird.tflite", in: folder)
        let table = try LiteVisionExecutable.run(["label", "--model", model, TestData.image("bird.jpg")])
        #expect(table.status == 0, "\(table.errors)")
        #expect(!Self.hasRawControl(table.output + table.errors), "\(table.output.debugDescription)")
        #expect(table.output.contains(Self.hostileEscaped + "Ardea cinerea (Grey Heron)"), "\(table.output)")

        let json = try LiteVisionExecutable.run(["label", "--json", "--model", model, TestData.image("bird.jpg")])
        #expect(json.status == 0, "\(json.errors)")
        #expect(!Self.hasRawControl(json.output), "\(json.output.debugDescription)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [String: Any])
        let labels = try #require(object["labels"] as? [[String: Any]])
        #expect(labels.first?["text"] as? String == Self.hostile + "Ardea cinerea (Grey Heron)")
    }

    @Test("detect and track (litevision-media): object labels holding escape sequences are printed escaped")
    func objectLabels() throws {
        let folder = TestData.temporaryDirectory("escape-objects")
        defer { try? FileManager.default.removeItem(at: folder) }
        let model = try Self.hostileModel("object_labeler.tflite", in: folder)
        let models = ["--model-dir", TestData.path("models"), "--model", model]
        let detect = try LiteVisionExecutable.run(["detect", "--multiple"] + models + [TestData.image("dogs.jpg")])
        #expect(detect.status == 0, "\(detect.errors)")
        #expect(!Self.hasRawControl(detect.output + detect.errors), "\(detect.output.debugDescription)")
        #expect(detect.output.contains(Self.hostileEscaped), "\(detect.output)")

        let track = try LiteVisionExecutable.run(["track"] + models + [TestData.path("video/cup.mp4")])
        #expect(track.status == 0, "\(track.errors)")
        #expect(!Self.hasRawControl(track.output + track.errors), "\(track.output.prefix(2000).debugDescription)")
        #expect(track.output.contains(Self.hostileEscaped), "\(track.output.prefix(2000))")
    }

    @Test("File names with control characters are printed escaped, in results and in errors")
    func fileNames() throws {
        let folder = TestData.temporaryDirectory("escape-names")
        defer { try? FileManager.default.removeItem(at: folder) }
        let name = "bird\u{1B}[31m\u{7}\nfake.jpg"
        let photo = folder.appendingPathComponent(name).path
        try FileManager.default.copyItem(atPath: TestData.image("bird.jpg"), toPath: photo)
        let missing = folder.appendingPathComponent("gone\u{1B}]0;x\u{7}.jpg").path
        let result = try LiteVisionExecutable.run(["label", "--model", TestData.model("bird.tflite"), photo, missing])
        #expect(result.status == 1)
        #expect(
            !Self.hasRawControl(result.output + result.errors), "\((result.output + result.errors).debugDescription)")
        #expect(result.output.contains(#"bird\u{1B}[31m\u{7}\u{A}fake.jpg"#), "\(result.output)")
        #expect(result.errors.contains(#"gone\u{1B}]0;x\u{7}.jpg"#), "\(result.errors)")

        let detect = try LiteVisionExecutable.run(["detect", "--model-dir", TestData.path("models"), photo])
        #expect(detect.status == 0, "\(detect.errors)")
        #expect(!Self.hasRawControl(detect.output + detect.errors), "\(detect.output.debugDescription)")
        #expect(detect.output.contains(#"bird\u{1B}[31m\u{7}\u{A}fake.jpg"#), "\(detect.output)")
    }

    @Test("A registry's error sentence holding escape sequences is printed escaped")
    func serverMessage() throws {
        let server = try LoopbackModelServer(serving: [:])
        defer { server.stop() }
        let result = try LiteVisionExecutable.run(["models", "list", "--registry", server.base("hostile-error")])
        #expect(result.status == 1)
        #expect(!Self.hasRawControl(result.output + result.errors), "\(result.errors.debugDescription)")
        #expect(
            result.errors.contains(#"\u{1B}]0;pwned\u{7} the registry is down \u{9B}31m\u{202E}"#), "\(result.errors)")
    }

    @Test("litevision-registry: a data folder whose name holds escape sequences is printed escaped")
    func registryOutput() throws {
        let folder = TestData.temporaryDirectory("escape-registry")
        defer { try? FileManager.default.removeItem(at: folder) }
        // A regular file where the data folder's parent should be: the server refuses the folder at once.
        let file = folder.appendingPathComponent("file\u{1B}]0;x\u{7}").path
        try Data("x".utf8).write(to: URL(fileURLWithPath: file))
        let result = try LiteVisionExecutable.run(["registry", "serve", "--data", file + "/data", "--port", "0"])
        #expect(result.status != 0)
        #expect(!Self.hasRawControl(result.output + result.errors), "\(result.errors.debugDescription)")
        #expect(result.errors.contains(#"file\u{1B}]0;x\u{7}/data"#), "\(result.errors)")
    }
}
