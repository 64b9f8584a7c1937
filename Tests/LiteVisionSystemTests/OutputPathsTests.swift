import Foundation
import LiteVisionSystem
import LiteVisionTestSupport
import Testing

@Suite("Output path rules")
struct OutputPathsTests {
    /// The reason `claim` refuses with, or nil when it accepts.
    static func refusal(_ claim: () throws(OutputPathError) -> Void) -> String? {
        do {
            try claim()
            return nil
        } catch {
            return error.reason
        }
    }

    @Test("Empty paths, the root folder, folders and non-regular files are refused as files")
    func unusableFiles() throws {
        let folder = TestData.temporaryDirectory("output-paths")
        defer { try? FileManager.default.removeItem(at: folder) }
        let fifo = folder.appendingPathComponent("pipe").path
        #expect(mkfifo(fifo, 0o600) == 0)
        var outputs = OutputPaths(inputs: [])
        let cases: [(String, String)] = [
            ("", "the path is empty"), ("/", "it is the root folder"), ("/..", "it is the root folder"),
            (folder.path + "/", "it names a folder, not a file"),
            (folder.path, "it exists and is a directory; refusing to replace it"),
            (fifo, "it exists and is a FIFO (named pipe); refusing to replace it"),
            ("/dev/null", "it exists and is a character device; refusing to replace it"),
            (folder.path + "/no/out.json", "its folder \(folder.path)/no does not exist"),
        ]
        for (path, reason) in cases {
            #expect(Self.refusal { () throws(OutputPathError) in try outputs.claimFile(path, for: "--out") } == reason)
        }
        #expect(
            OutputPathError(option: "--json", path: "", reason: "the path is empty").description
                == "cannot write \"\" (--json): the path is empty")
    }

    @Test("An output that is an input under any name is refused; two outputs never share a file")
    func inputsAndSharing() throws {
        let folder = TestData.temporaryDirectory("output-paths")
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = folder.appendingPathComponent("in.txt").path
        try Data("input".utf8).write(to: URL(fileURLWithPath: input))
        let hard = folder.appendingPathComponent("hard.txt").path
        #expect(link(input, hard) == 0)
        let symbolic = folder.appendingPathComponent("sym.txt").path
        #expect(symlink(input, symbolic) == 0)
        var outputs = OutputPaths(inputs: [input])
        for path in [input, hard, symbolic, folder.path + "/./in.txt"] {
            #expect(
                Self.refusal { () throws(OutputPathError) in try outputs.claimFile(path, for: "--out") }
                    == "it is the input \(input); an output never replaces an input")
        }
        let out = folder.appendingPathComponent("out.json").path
        #expect(Self.refusal { () throws(OutputPathError) in try outputs.claimFile(out, for: "--json") } == nil)
        #expect(
            Self.refusal { () throws(OutputPathError) in
                try outputs.claimFile(folder.path + "//out.json", for: "--mot")
            } == "--json writes the same file; give each output its own path")
        // A folder to be made: its files are told apart by name.
        let drawn = folder.appendingPathComponent("drawn/more").path
        #expect(
            Self.refusal { () throws(OutputPathError) in try outputs.claimFolder(drawn + "/", for: "--dir") } == nil)
        #expect(Self.refusal { () throws(OutputPathError) in try outputs.claimFile(drawn + "/a.png", for: "a") } == nil)
        #expect(
            Self.refusal { () throws(OutputPathError) in try outputs.claimFile(drawn + "/a.png", for: "b") }
                == "a writes the same file; give each output its own path")
        #expect(
            Self.refusal { () throws(OutputPathError) in try outputs.claimFolder(input, for: "--dir") }
                == "it exists and is a regular file, not a folder")
        #expect(
            Self.refusal { () throws(OutputPathError) in try outputs.claimFolder("", for: "--dir") }
                == "the path is empty")
        #expect(
            Self.refusal { () throws(OutputPathError) in try outputs.claimFolder("//", for: "--dir") }
                == "it is the root folder")
        #expect(try String(contentsOfFile: input, encoding: .utf8) == "input")
    }

    @Test("No file output lies inside a protected folder (the model cache), under any name")
    func protectedFolders() throws {
        let folder = TestData.temporaryDirectory("output-paths")
        defer { try? FileManager.default.removeItem(at: folder) }
        let cache = folder.appendingPathComponent("cache").path
        try FileManager.default.createDirectory(atPath: cache + "/remote/m", withIntermediateDirectories: true)
        #expect(symlink(cache + "/remote", folder.appendingPathComponent("alias").path) == 0)
        var outputs = OutputPaths(inputs: [], protectedFolders: [cache, folder.path + "/missing"])
        let reason = "it is inside the model cache \(cache), where LiteVision keeps its models; write it elsewhere"
        for path in [
            cache + "/out.json", cache + "/remote/m/model.tflite", folder.path + "/alias/m/x.png",
            folder.path + "/cache/../cache/out.json",
        ] {
            #expect(
                Self.refusal { () throws(OutputPathError) in try outputs.claimFile(path, for: "--json") } == reason,
                "\(path)")
        }
        // Beside the cache, or in a folder merely named like it, is fine.
        for path in [folder.path + "/out.json", folder.path + "/cache-copy.json"] {
            #expect(Self.refusal { () throws(OutputPathError) in try outputs.claimFile(path, for: "--json") } == nil)
        }
    }
}
