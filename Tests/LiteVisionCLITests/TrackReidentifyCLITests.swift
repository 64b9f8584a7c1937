import Foundation
import LiteVisionTestSupport
import Testing

/// `litevision track --detections FILE --reidentify`: re-identification by the appearance vectors after the tenth
/// field of each row.
@Suite("litevision track --detections --reidentify")
struct TrackReidentifyCLITests {
    /// A walker leaving a 640x480 view through the right border at frame 14 and coming back through the left one at
    /// frame 51, and a second person standing all along; each row carries its person's 3-value appearance vector
    /// when `vectors`.
    static func leaveAndReturn(vectors: Bool) -> String {
        var rows: [String] = []
        for frame in 1...90 {
            let t = frame - 1
            let x = t < 50 ? 520 + 8 * t : -50 + 8 * (t - 50)
            let low = max(0, x), high = min(640, x + 60)
            if high - low >= 10 {
                rows.append("\(frame),-1,\(low),100,\(high - low),120,0.9,-1,-1,-1" + (vectors ? ",1,0.1,0" : ""))
            }
            rows.append("\(frame),-1,300,300,50,110,0.9,-1,-1,-1" + (vectors ? ",0,0.2,1" : ""))
        }
        return rows.joined(separator: "\n") + "\n"
    }

    /// The IDs of the walker's rows (x other than 300) in a --mot file.
    static func walkerIDs(_ mot: String) throws -> Set<Int> {
        let rows = try String(contentsOfFile: mot, encoding: .utf8).split(separator: "\n").map {
            $0.split(separator: ",").map(String.init)
        }
        return Set(rows.filter { $0[2] != "300.00" && $0[2] != "300" }.compactMap { Int($0[1]) })
    }

    @Test("The walker keeps its ID with --reidentify, gets a new one without (ML Kit's rule)")
    func walkerKeepsID() throws {
        let folder = TestData.temporaryDirectory("cli-track-reidentify")
        defer { try? FileManager.default.removeItem(at: folder) }
        let withVectors = folder.appendingPathComponent("det-appearance.txt")
        try Self.leaveAndReturn(vectors: true).write(to: withVectors, atomically: true, encoding: .utf8)
        let plain = folder.appendingPathComponent("det.txt")
        try Self.leaveAndReturn(vectors: false).write(to: plain, atomically: true, encoding: .utf8)
        let mot = folder.appendingPathComponent("out.txt").path
        let common = ["--image-size", "640x480", "--mot", mot]
        let reidentified = try LiteVisionExecutable.run(
            ["track", "--detections", withVectors.path, "--reidentify", "--reid-memory", "100"] + common)
        #expect(reidentified.status == 0, "\(reidentified.errors)")
        #expect(try Self.walkerIDs(mot) == [0])
        let plainRun = try LiteVisionExecutable.run(["track", "--detections", plain.path] + common)
        #expect(plainRun.status == 0, "\(plainRun.errors)")
        #expect(try Self.walkerIDs(mot) == [0, 2])
        // Remembered for fewer frames than the walker is away: a new ID again.
        let short = try LiteVisionExecutable.run(
            ["track", "--detections", withVectors.path, "--reidentify", "--reid-memory", "20"] + common)
        #expect(short.status == 0, "\(short.errors)")
        #expect(try Self.walkerIDs(mot) == [0, 2])
        // Without --reidentify, the appearance fields are too many fields, as before.
        let refused = try LiteVisionExecutable.run(["track", "--detections", withVectors.path] + common)
        #expect(refused.status == 2)
        #expect(refused.errors.contains(":1: 13 columns, expected 7 to 10"), "\(refused.errors)")
    }

    @Test(
        "A malformed appearance vector is refused with its line number and status 2",
        arguments: [
            ("1,-1,10,10,20,20,0.9,-1,-1,-1,abc,1\n", "1: column 11 is not a number: 'abc'"),
            ("1,-1,10,10,20,20,0.9,-1,-1,-1,0.5,nan\n", "1: column 12 is nan: write a finite number"),
            ("1,-1,10,10,20,20,0.9,-1,-1,-1,0.5,,1\n", "1: column 12 is empty: write a number"),
            (
                "1,-1,10,10,20,20,0.9,-1,-1,-1,1,1e39\n",
                "1: column 12 (appearance value 2) is 1e39: write a number within ±3.4028235e+38"
            ),
            (
                "1,-1,10,10,20,20,0.9,-1,-1,-1,0,0,-0\n",
                "1: the appearance vector is all zeros: it has no direction to compare"
            ),
            (
                "1,-1,10,10,20,20,0.9,-1,-1,-1,1,2\n1,-1,50,10,20,20,0.9\n\n2,-1,10,10,20,20,0.9,-1,-1,-1,1,2,3\n",
                "4: 3 appearance values, but line 1 has 2: every vector must have the same length"
            ),
            ("1,-1,10,10,20,20,0.9,-1,-1,-1,1,inf\n", "1: column 12 is inf: write a finite number"),
        ])
    func malformed(text: String, message: String) throws {
        let folder = TestData.temporaryDirectory("cli-track-reidentify-bad")
        defer { try? FileManager.default.removeItem(at: folder) }
        let detections = folder.appendingPathComponent("det.txt")
        try text.write(to: detections, atomically: true, encoding: .utf8)
        let mot = folder.appendingPathComponent("out.txt").path
        let result = try LiteVisionExecutable.run(
            ["track", "--detections", detections.path, "--reidentify", "--mot", mot])
        #expect(result.status == 2)
        #expect(result.errors == "litevision: \(detections.path):\(message)\n", "\(result.errors)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["det.txt"])
    }

    @Test("The settings go with --reidentify, which goes with --detections; out-of-range settings are refused")
    func argumentRules() throws {
        let cases: [([String], String)] = [
            (["track", "--detections", "det.txt", "--reid-similarity", "0.8"], "go with --reidentify"),
            (["track", "--reidentify", "video.mp4"], "--reidentify goes with --detections"),
            (
                ["track", "--detections", "det.txt", "--reidentify", "--reid-similarity", "2"],
                "--reid-similarity must be a cosine similarity from -1 to 1"
            ),
            (
                ["track", "--detections", "det.txt", "--reidentify", "--reid-similarity", "nan"],
                "--reid-similarity must be a cosine similarity from -1 to 1"
            ),
            (["track", "--detections", "det.txt", "--reidentify", "--reid-margin=-1"], "--reid-margin must be"),
            (["track", "--detections", "det.txt", "--reidentify", "--reid-memory", "0"], "--reid-memory must be"),
        ]
        for (arguments, message) in cases {
            let result = try LiteVisionExecutable.run(arguments)
            #expect(result.status == 64, "\(arguments)")
            #expect(result.errors.contains(message), "\(arguments): \(result.errors)")
        }
    }

    @Test("TrackEval on the benchmark's sim-return scene: --reidentify raises IDF1 and HOTA over the defaults")
    func benchmarkScene() throws {
        // The scene: people walking out of the view and back; for the --reidentify variant, the driver adds the
        // detections' appearance vectors.
        let scores = try TrackingBenchmark.compare(
            sequence: "sim-return", seed: 1, variants: ["reidentify=--reidentify"])
        #expect(Set(scores.keys) == ["LiteVision", "reidentify", "SORT", "ByteTrack", "OC-SORT", "BoT-SORT"])
        let plain = try #require(scores["LiteVision"]), reidentified = try #require(scores["reidentify"])
        let plainIDF1 = try #require(plain["IDF1"]), reidentifiedIDF1 = try #require(reidentified["IDF1"])
        let plainHOTA = try #require(plain["HOTA"]), reidentifiedHOTA = try #require(reidentified["HOTA"])
        #expect(reidentifiedIDF1 >= plainIDF1 + 10, "\(scores)")
        #expect(reidentifiedHOTA >= plainHOTA + 5, "\(scores)")
        // Detection is the same: only IDs change.
        #expect(abs((reidentified["DetA"] ?? 0) - (plain["DetA"] ?? 0)) < 1, "\(scores)")
    }
}
