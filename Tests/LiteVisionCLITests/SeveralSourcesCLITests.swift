import Foundation
import LiteVisionTestSupport
import Testing

/// `litevision track A B C D`: several cameras in one process, each with its own tracker, sharing the cores.
@Suite("litevision track with several sources", .serialized)
struct SeveralSourcesCLITests {
    @Test("four live RTSP cameras for 8 s: every camera's frames nearly all processed, records named by camera")
    func fourCameras() async throws {
        let folder = TestData.temporaryDirectory("cli-four")
        defer { try? FileManager.default.removeItem(at: folder) }
        let clip = try StreamFixtures.concatenated(StreamFixtures.defaultClip, times: 2, in: folder)
        let servers = try (0..<4).map { _ in try RTSPTestServer(clip: clip) }
        let json = folder.appendingPathComponent("four.jsonl").path
        let urls = servers.map(\.url)
        let result = try await onThread {
            try LiteVisionExecutable.run(
                ["track", "--duration", "8", "--json", json, "--model-dir", TestData.path("models")] + urls)
        }
        #expect(result.status == 0, "\(result.errors)")
        let records = try String(contentsOfFile: json, encoding: .utf8).split(separator: "\n").map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
        let bySource = Dictionary(grouping: records) { $0["source"] as? String ?? "" }
        #expect(Set(bySource.keys) == Set(servers.map(\.url)))
        let counts = servers.map { bySource[$0.url]?.count ?? 0 }
        let most = counts.max() ?? 0
        // 26.8 frames a second for ~7 s once connected, on a machine running other tests too: every camera is
        // served, none far below the best served (the 0.9 share is measured by scripts/bench-streams.sh). The
        // streams flow: 56–57 records per camera next to the other live suites on a slower machine (60 and more
        // before); how many is speed, measured by scripts/bench-streams.sh, not here.
        #expect(most >= 40 && counts.allSatisfy { Double($0) >= 0.7 * Double(most) }, "records per camera: \(counts)")
        for (url, lines) in bySource {
            let frames = lines.compactMap { $0["frame"] as? Int }
            #expect(zip(frames, frames.dropFirst()).allSatisfy { $0 < $1 }, "\(url): frames in order")
            let latencies = lines.compactMap { $0["latencyMs"] as? Double }.sorted()
            let p95 = latencies.isEmpty ? 0 : latencies[latencies.count * 95 / 100]
            #expect(p95 < 1000, "\(url): p95 latency \(p95) ms: frames waited in a queue")
            // Each camera's tracker hands out its own IDs: the cup is the same object with the same first ID in all.
            let ids = lines.flatMap {
                ($0["objects"] as? [[String: Any]] ?? []).compactMap { $0["trackingID"] as? Int }
            }
            #expect(ids.min() == 0 || ids.min() == 1, "\(url): IDs from \(ids.min() ?? -1)")
        }
    }

    @Test("--mot and --annotate take one source; a source given twice is refused")
    func oneSourceOutputs() throws {
        let cup = TestData.path("video/cup.mp4"), traffic = TestData.path("video/traffic_frames.mp4")
        for option in ["--mot", "--annotate"] {
            let result = try LiteVisionExecutable.run(["track", option, "/tmp/out-\(UUID().uuidString)", cup, traffic])
            #expect(result.status == 64 && result.errors.contains("take one source"), "\(result.errors)")
        }
        let twice = try LiteVisionExecutable.run(["track", "--model-dir", TestData.path("models"), cup, cup])
        #expect(twice.status == 2 && twice.errors.contains("given twice"), "\(twice.errors)")
    }

    @Test("two files, lines per frame named by their file; a damaged one fails alone, with status 1")
    func filesAndFailure() async throws {
        let folder = TestData.temporaryDirectory("cli-two-files")
        defer { try? FileManager.default.removeItem(at: folder) }
        let cup = TestData.path("video/cup.mp4")
        // An AVI cut short in the middle of its data: decodable frames, then damage.
        let bytes = try Data(contentsOf: URL(fileURLWithPath: TestData.path("video/vtest.avi")))
        let damaged = folder.appendingPathComponent("vtest-cut.avi")
        try bytes.prefix(bytes.count / 3).write(to: damaged)
        let damagedPath = damaged.path
        let result = try await onThread {
            try LiteVisionExecutable.run(["track", "--model-dir", TestData.path("models"), cup, damagedPath])
        }
        let lines = result.output.split(separator: "\n")
        #expect(lines.filter { $0.hasPrefix("\(cup): frame ") }.count == 217, "\(result.errors)")
        #expect(lines.contains { $0.hasPrefix("\(damaged.path): frame ") })
        #expect(result.status == 1 && result.errors.contains(damaged.path), "\(result.status) \(result.errors)")
    }
}
