import Foundation
import LiteVisionTestSupport
import Testing

/// Outputs that cannot be written (issue 9, paths): a full disk ends the command with status 1 and a message, no
/// temporary file is left behind, and the outputs that can be written still are.
@Suite("litevision: outputs that cannot be written")
struct UnwritableOutputCLITests {
    @Test("An output that cannot be written (a file size limit, as a full disk) ends with status 1 and a message")
    func unwritableOutputs() throws {
        let (folder, video, _) = try PathSafety.fixtures()
        defer { try? FileManager.default.removeItem(at: folder) }
        let out = folder.appendingPathComponent("out")
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        let cases: [([String], String)] = [
            (
                ["track", "--json", out.path + "/t.json"] + PathSafety.models + [video],
                "Cannot write \(out.path)/t.json"
            ),
            (["track", "--mot", out.path + "/t.txt"] + PathSafety.models + [video], "Cannot write \(out.path)/t.txt"),
            (["track", "--annotate", out.path + "/t.mp4"] + PathSafety.models + [video], "Writing the video failed"),
            (
                ["detect", "--annotate", out.path + "/d.png"] + PathSafety.models + [TestData.image("burger.jpg")],
                "Cannot write \(out.path)/d.png"
            ),
        ]
        for (arguments, message) in cases {
            let result = try PathSafety.run(arguments, fileSizeLimit: 1)
            #expect(result.status == 1, "\(arguments): \(result.errors)")
            #expect(
                result.errors.contains(message) && result.errors.lowercased().contains("too large"), "\(result.errors)")
        }
        // Outputs are written as frames come: what a failure leaves is whole records (and the drawn video's fragments).
        for name in try FileManager.default.contentsOfDirectory(atPath: out.path) where name != "t.mp4" {
            #expect(name == "t.json" || name == "t.txt", "\(name) left behind")
            let text = try String(contentsOfFile: out.appendingPathComponent(name).path, encoding: .utf8)
            #expect(text.isEmpty || text.hasSuffix("\n"), "\(name) ends with a cut record")
        }
    }

    @Test("track: when the drawn video cannot be written, --json and --mot still get every frame")
    func videoFailsOthersWritten() throws {
        let (folder, video, _) = try PathSafety.fixtures()
        defer { try? FileManager.default.removeItem(at: folder) }
        let json = folder.appendingPathComponent("t.json").path, mot = folder.appendingPathComponent("t.txt").path
        let drawn = folder.appendingPathComponent("t.mp4").path
        // The JSON of cup.mp4 is about 43 kB and the drawn video about 800 kB: a limit of 200 blocks parts them.
        let result = try PathSafety.run(
            ["track", "--json", json, "--mot", mot, "--annotate", drawn] + PathSafety.models + [video],
            fileSizeLimit: 200)
        #expect(result.status == 1, "\(result.errors)")
        #expect(result.errors.contains("Writing the video failed"), "\(result.errors)")
        // Every frame is in the JSON: as many lines as a run without the video writes.
        let all = folder.appendingPathComponent("all.json").path
        let complete = try PathSafety.run(["track", "--json", all] + PathSafety.models + [video])
        #expect(complete.status == 0, "\(complete.errors)")
        let lines = try String(contentsOfFile: json, encoding: .utf8).split(separator: "\n")
        #expect(lines.count == (try String(contentsOfFile: all, encoding: .utf8).split(separator: "\n").count))
        #expect(
            lines.count > 100 && lines.allSatisfy { (try? JSONSerialization.jsonObject(with: Data($0.utf8))) != nil })
        #expect(try String(contentsOfFile: mot, encoding: .utf8).split(separator: "\n").count > 100)
        // The drawn video is fragmented MP4 written as frames come: what was written before the failure stays.
        #expect(PathSafety.hiddenNames(in: folder).isEmpty)
    }
}
