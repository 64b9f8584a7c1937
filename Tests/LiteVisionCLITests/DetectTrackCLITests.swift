import Foundation
import LiteVision
import LiteVisionTestSupport
import Testing
import LiteVisionImaging

/// `litevision detect` and `litevision track`, run as a user would.
@Suite("litevision detect and track")
struct DetectTrackCLITests {
    static let models = ["--model-dir", TestData.path("models")]

    @Test("detect --json: ML Kit's field names; --annotate writes a PNG of the photo's size")
    func detect() throws {
        let folder = TestData.temporaryDirectory("cli-detect")
        defer { try? FileManager.default.removeItem(at: folder) }
        let png = folder.appendingPathComponent("burger.png").path
        let result = try LiteVisionExecutable.run(
            ["detect", "--json", "--classify", "--annotate", png] + Self.models + [TestData.image("burger.jpg")])
        #expect(result.status == 0, "\(result.errors)")
        let line = try #require(try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any])
        let objects = try #require(line["objects"] as? [[String: Any]])
        #expect(objects.count == 1)
        let frame = try #require(objects[0]["frame"] as? [String: Double])
        #expect(Set(frame.keys) == ["x", "y", "width", "height"])
        #expect((objects[0]["labels"] as? [[String: Any]])?.first?["text"] as? String == "Food")
        #expect(objects[0]["trackingID"] == nil, "single-image mode has no tracking ID")
        let drawn = try ImageDecoder().inspectFile(atPath: png)
        #expect(drawn.width == 480 && drawn.height == 325)
    }

    @Test("track --mot and --json on cup.mp4: one row per frame with an object, one stable ID")
    func track() throws {
        let folder = TestData.temporaryDirectory("cli-track")
        defer { try? FileManager.default.removeItem(at: folder) }
        let mot = folder.appendingPathComponent("cup.txt").path
        let json = folder.appendingPathComponent("cup.jsonl").path
        let result = try LiteVisionExecutable.run(
            ["track", "--mot", mot, "--json", json] + Self.models + [TestData.path("video/cup.mp4")])
        #expect(result.status == 0, "\(result.errors)")
        let rows = try String(contentsOfFile: mot, encoding: .utf8).split(separator: "\n").map {
            $0.split(separator: ",")
        }
        #expect(rows.count > 150)
        #expect(rows.allSatisfy { $0.count == 10 && $0[7] == "-1" && $0[8] == "-1" && $0[9] == "-1" })
        let ids = rows.map { String($0[1]) }
        let dominant = Dictionary(grouping: ids, by: { $0 }).values.map(\.count).max() ?? 0
        #expect(Double(dominant) >= 0.9 * Double(rows.count))
        let frames = try String(contentsOfFile: json, encoding: .utf8).split(separator: "\n")
        #expect(frames.count >= rows.count)
        #expect(!FileManager.default.fileExists(atPath: mot + ".partial"))
    }

    @Test("track --frame-rate on a video sets the tracker's frame rate, which it otherwise measures (vtest.avi: 10)")
    func frameRateOnVideo() throws {
        let folder = TestData.temporaryDirectory("cli-track-rate")
        defer { try? FileManager.default.removeItem(at: folder) }
        /// The MOT rows of the first 150 frames of vtest.avi's people, with `extra` arguments.
        func rows(_ extra: [String]) throws -> String {
            let mot = folder.appendingPathComponent("out.txt").path
            let result = try LiteVisionExecutable.run(
                ["track", "--multiple", "--threshold", "0.3", "--frames", "150", "--mot", mot] + extra + Self.models
                    + [TestData.path("video/vtest.avi")])
            #expect(result.status == 0, "\(result.errors)")
            return try String(contentsOfFile: mot, encoding: .utf8)
        }
        let measured = try rows([]), ten = try rows(["--frame-rate", "10"]), thirty = try rows(["--frame-rate", "30"])
        #expect(measured.split(separator: "\n").count > 300 && thirty.split(separator: "\n").count > 300)
        // The measured 10 fps and 10 given: the rules under 20 fps, the same rows (the tracker works as at 20 fps and
        // more until the meter knows 10 intervals, which changes nothing here).
        #expect(measured == ten)
        // 30 given: the usual rules, other rows.
        #expect(thirty != ten)
    }

    @Test("track on a damaged video processes the frames before the damage, writes them, and fails")
    func damagedVideo() throws {
        let folder = TestData.temporaryDirectory("cli-damaged")
        defer { try? FileManager.default.removeItem(at: folder) }
        let bytes = try Data(contentsOf: URL(fileURLWithPath: TestData.path("video/vtest.avi")))
        let damaged = folder.appendingPathComponent("vtest-cut.avi")
        try bytes.prefix(bytes.count / 3).write(to: damaged)
        let mot = folder.appendingPathComponent("out.txt").path
        let json = folder.appendingPathComponent("out.jsonl").path
        let result = try LiteVisionExecutable.run(
            ["track", "--multiple", "--threshold", "0.3", "--json", json, "--mot", mot] + Self.models + [damaged.path])
        let frames = try String(contentsOfFile: json, encoding: .utf8).split(separator: "\n")
        #expect(frames.count > 50, "the frames before the cut were processed and written")
        #expect(frames.count < 795)
        #expect(FileManager.default.fileExists(atPath: mot))
        #expect(result.status == 1, "\(result.errors)")
        #expect(result.errors.contains("is damaged"), "\(result.errors)")
    }

    @Test("track refuses an empty file and a text file with a one-line reason", arguments: ["empty", "text"])
    func badVideo(kind: String) throws {
        let folder = TestData.temporaryDirectory("cli-badvideo")
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("clip.mp4")
        try Data(kind == "empty" ? [] : Array("not a video at all\n".utf8)).write(to: file)
        let result = try LiteVisionExecutable.run(["track"] + Self.models + [file.path])
        #expect(result.status == 2)
        #expect(result.errors.split(separator: "\n").count == 1, "\(result.errors)")
        #expect(result.errors.contains(kind == "empty" ? "empty" : "clip.mp4"))
    }
}
