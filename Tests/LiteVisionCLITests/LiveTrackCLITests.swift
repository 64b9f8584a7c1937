import Foundation
import LiteVisionTestSupport
import Testing

/// `litevision track` on live network streams from real servers on loopback, run as a user would.
@Suite("litevision track on live streams", .serialized)
struct LiveTrackCLITests {
    static let models = ["--model-dir", TestData.path("models")]

    /// The JSON records of a run.
    private func records(_ path: String) throws -> [[String: Any]] {
        try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
    }

    @Test(
        "RTSP with a password: one ID on most frames, written per frame, the password in no output or message"
    )
    func rtsp() async throws {
        let folder = TestData.temporaryDirectory("cli-rtsp")
        defer { try? FileManager.default.removeItem(at: folder) }
        let clip = try StreamFixtures.concatenated(StreamFixtures.defaultClip, times: 2, in: folder)
        let server = try RTSPTestServer(clip: clip, user: "operator", password: "pa55-w0rd-x")
        let json = folder.appendingPathComponent("live.jsonl").path,
            mot = folder.appendingPathComponent("live.txt").path
        let url = server.authenticatedURL
        let result = try await onThread {
            try LiteVisionExecutable.run(
                ["track", "--duration", "8", "--json", json, "--mot", mot] + Self.models + [url])
        }
        #expect(result.status == 0, "\(result.errors)")
        let lines = try records(json)
        // The stream flows: 150–190 frames on a quiet machine, 124 in a clean-clone CI run on a slower one (speed is
        // measured by scripts/bench-streams.sh, not here).
        #expect(lines.count >= 100, "\(lines.count) frames in 8 s of a 26.8 fps stream")
        let masked = "rtsp://operator:***@127.0.0.1:\(server.port)/cam"
        #expect(lines.allSatisfy { $0["source"] as? String == masked })
        #expect(lines.allSatisfy { ($0["latencyMs"] as? Double).map { $0 >= 0 && $0 < 1000 } ?? false })
        let frames = lines.compactMap { $0["frame"] as? Int }, stamps = lines.compactMap { $0["timestamp"] as? Double }
        #expect(
            zip(frames, frames.dropFirst()).allSatisfy { $0 < $1 }
                && zip(stamps, stamps.dropFirst()).allSatisfy { $0 <= $1 })
        // A live source drops frames on a busy machine (15 % to 45 % in CI runs), and the mug turns in the clip:
        // replayed with frames dropped at random (`docs/tracking-quality.md`, tenth round), the tracker keeps one ID
        // on 73 % of the frames at least with 15 % dropped, 69 % with 30 %, 42 % with 50 %. The bar follows the share
        // of the stream's frames this run dropped; a tracker that lost its state between frames would give a new ID
        // every frame, far under any of them.
        let ids = lines.flatMap { ($0["objects"] as? [[String: Any]] ?? []).compactMap { $0["trackingID"] as? Int } }
        let dominant = Dictionary(grouping: ids, by: { $0 }).values.map(\.count).max() ?? 0
        // The frames the stream sent from the first record to the last, by frame number or by time (26.8 fps).
        let sent = max(
            (frames.last ?? 0) - (frames.first ?? 0) + 1, Int(((stamps.last ?? 0) - (stamps.first ?? 0)) * 26.8) + 1)
        let dropped = sent > 0 ? max(0, 1 - Double(lines.count) / Double(sent)) : 1
        let bar = dropped <= 0.3 ? 0.65 : 0.4
        #expect(
            Double(dominant) >= bar * Double(lines.count),
            "IDs \(Dictionary(grouping: ids, by: { $0 }).mapValues(\.count)), \(Int(dropped * 100)) % of frames dropped"
        )
        let everything = [
            result.output, result.errors, try String(contentsOfFile: json, encoding: .utf8),
            try String(contentsOfFile: mot, encoding: .utf8),
        ].joined()
        #expect(!everything.contains("pa55-w0rd-x"))
    }

    /// Starts `litevision track ARGUMENTS`, whose `--json` file is `json`, and once that file holds more than `count`
    /// records sends it `signal` and waits for it to end. Blocking: run it with `onThread`. Whether the records came
    /// (the command is killed if not), and its exit status.
    private static func run(
        _ arguments: [String], json: String, untilRecords count: Int, thenSignal signal: Int32
    ) throws -> (reached: Bool, status: Int32) {
        let track = try TrackProcess(["--json", json] + arguments)
        let reached = track.waitForLines(in: json, moreThan: count)
        track.send(reached ? signal : SIGKILL)
        return (reached, track.end())
    }

    /// How many frames `ffprobe` decodes from a video file (0 when it cannot read it).
    private static func decodableFrames(_ path: String) throws -> Int {
        let probe = Process()
        probe.executableURL = URL(fileURLWithPath: "/usr/bin/ffprobe")
        probe.arguments = [
            "-v", "error", "-count_frames", "-select_streams", "v:0", "-show_entries",
            "stream=nb_read_frames", "-of", "csv=p=0", path,
        ]
        let output = Pipe()
        probe.standardOutput = output
        probe.standardError = FileHandle.nullDevice
        try probe.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        probe.waitUntilExit()
        return Int(text.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
    }

    @Test("SIGINT ends the run with status 0 and complete outputs; a killed run leaves a playable drawn video")
    func stopping() async throws {
        let folder = TestData.temporaryDirectory("cli-rtsp-stop")
        defer { try? FileManager.default.removeItem(at: folder) }
        let clip = try StreamFixtures.concatenated(StreamFixtures.defaultClip, times: 2, in: folder)
        let server = try RTSPTestServer(clip: clip)
        let url = server.url
        let json = folder.appendingPathComponent("stopped.jsonl").path
        let drawn = folder.appendingPathComponent("stopped.mp4").path
        // Interrupted once it has written 50 records (about 2 s of the stream).
        let interrupted = try await onThread {
            try Self.run(["--annotate", drawn, url], json: json, untilRecords: 50, thenSignal: SIGINT)
        }
        try #require(interrupted.reached, "no 50 records within 60 s")
        #expect(interrupted.status == 0)
        let lines = try records(json)
        let drawnFrames = try await onThread { try Self.decodableFrames(drawn) }
        #expect(drawnFrames == lines.count)
        // Killed: no chance to finish anything, yet the drawn video plays up to its last fragment.
        let killedVideo = folder.appendingPathComponent("killed.mp4").path
        let killedJSON = folder.appendingPathComponent("killed.jsonl").path
        // Killed after 140 frames: the drawn video then holds at least two whole fragments (a keyframe every 2 s of
        // this 26.8 fps stream, 54 frames), of which at least the first is written out.
        let killed = try await onThread {
            try Self.run(["--annotate", killedVideo, url], json: killedJSON, untilRecords: 140, thenSignal: SIGKILL)
        }
        try #require(killed.reached, "no 140 records within 60 s")
        let killedFrames = try await onThread { try Self.decodableFrames(killedVideo) }
        #expect(killedFrames > 30)
    }

    @Test("the server killed and restarted mid-run: frames resume, the run ends at --duration with status 0")
    func restart() async throws {
        let folder = TestData.temporaryDirectory("cli-rtsp-restart")
        defer { try? FileManager.default.removeItem(at: folder) }
        let clip = try StreamFixtures.concatenated(StreamFixtures.defaultClip, times: 3, in: folder)
        let server = try RTSPTestServer(clip: clip)
        let json = folder.appendingPathComponent("live.jsonl").path
        let run = try await onThread { () throws -> (reached: Bool, status: Int32, messages: String) in
            // Killed when it goes out of scope, also if the test throws first: it never outlives the test.
            let track = try TrackProcess(["--duration", "16", "--json", json, server.url])
            // The server goes once 70 frames are written, however long a loaded machine took to start the command.
            let reached = track.waitForLines(in: json, moreThan: 70)
            if reached {
                server.stop()
                Thread.sleep(forTimeInterval: 2)
                try server.restart()
            } else {
                track.send(SIGKILL)
            }
            // The run ends by itself at --duration 16; the bound only stops a command that no longer does.
            let status = track.end(within: 76)
            return (reached, status, track.errors)
        }
        try #require(run.reached, "no 70 records within 60 s: \(run.messages)")
        #expect(run.status == 0, "\(run.messages)")
        #expect(run.messages.contains("stream lost") && run.messages.contains("reconnected"), "\(run.messages)")
        let lines = try records(json)
        let stamps = lines.compactMap { $0["timestamp"] as? Double }
        let gap = stamps.indices.dropLast().first { stamps[$0 + 1] - stamps[$0] > 1 } ?? stamps.count
        #expect(gap > 60 && stamps.count - gap > 60, "\(stamps.count) frames, the gap after \(gap)")
    }

    @Test("nothing listening, a server that never answers, a 401: each a clear error and status 2, in time")
    func failures() async throws {
        let closed = try LoopbackPort.unused()
        let stalled = try StalledTestServer()
        let locked = try RTSPTestServer(user: "operator", password: "secret-word")
        // Limits include starting the command and loading its models: the refused case took 7.9 s in one clean-clone
        // CI run with the live suites beside it. 9 s still fails a command that waits for the 10-s connect timeout.
        let cases: [(String, String, Double)] = [
            ("rtsp://127.0.0.1:\(closed)/cam", "refused", 9),
            (stalled.url(scheme: "rtsp"), "no answer within 10 s", 15),
            (locked.url, "401", 9),
            (locked.url(user: "operator", password: "wrong-word"), "401", 9),
        ]
        for (url, expected, limit) in cases {
            let start = Date()
            let result = try await onThread { try LiteVisionExecutable.run(["track"] + Self.models + [url]) }
            let elapsed = Date().timeIntervalSince(start)
            #expect(result.status == 2 && result.errors.contains(expected), "\(url): \(result.errors)")
            #expect(elapsed < limit, "\(url): \(elapsed) s")
            #expect(!result.errors.contains("wrong-word"))
        }
    }

    @Test("an HLS playlist pointing at a local file: refused, the file never opened")
    func hostilePlaylist() throws {
        let server = try HTTPStreamTestServer()
        let result = try LiteVisionExecutable.run(["track"] + Self.models + [server.url("/evil/index.m3u8")])
        #expect(result.status != 0, "\(result.output)")
        Thread.sleep(forTimeInterval: 0.1)
        #expect(!server.secretWasOpened)
    }
}
