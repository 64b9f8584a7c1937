import Foundation
import LiteVisionImaging
import LiteVisionTestSupport
import Testing

/// `litevision track` on videos of sizes the shared clips do not have: tiny, odd, and widths that are not a
/// multiple of 16 (426x240 is the standard 240p size). Each aborted or crashed before swscale got aligned, padded
/// buffers (a heap overflow past the last RGB row); `scripts/sanitize.sh address` runs this suite too.
@Suite("litevision track on odd video sizes")
struct OddVideoSizeCLITests {
    static let sizes: [(Int, Int)] = [
        (1, 1), (2, 2), (3, 3), (4, 4), (5, 7), (8, 8), (10, 10), (12, 12), (13, 11), (24, 24), (30, 18), (31, 17),
        (63, 64), (64, 63), (202, 114), (426, 240), (854, 480), (1366, 768),
    ]

    @Test(
        "track --json --annotate: every frame tracked, a playable video of the size (odd sizes padded by one)",
        arguments: sizes)
    func trackAndAnnotate(width: Int, height: Int) throws {
        let folder = TestData.temporaryDirectory("odd-size")
        defer { try? FileManager.default.removeItem(at: folder) }
        let video = try GeneratedVideo.make(width: width, height: height, frames: 5, in: folder)
        let json = folder.appendingPathComponent("out.jsonl").path
        let annotated = folder.appendingPathComponent("out.mp4").path
        let result = try LiteVisionExecutable.run(
            ["track", "--json", json, "--annotate", annotated] + DetectTrackCLITests.models + [video])
        #expect(result.status == 0, "\(width)x\(height): \(result.errors)")
        let lines = try String(contentsOfFile: json, encoding: .utf8).split(separator: "\n")
        #expect(lines.count == 5, "\(width)x\(height)")
        // The annotated video plays: tracking it again reads its five frames (its padded size is checked by
        // VideoSizeTests in the video module's tests).
        let again = try LiteVisionExecutable.run(["track"] + DetectTrackCLITests.models + [annotated])
        #expect(again.status == 0, "\(width)x\(height): \(again.errors)")
        #expect(again.output.split(separator: "\n").count == 5, "\(again.output)")
    }

    @Test("track with the summary on standard output", arguments: [(426, 240), (13, 11), (1, 1)])
    func trackSummary(width: Int, height: Int) throws {
        let folder = TestData.temporaryDirectory("odd-size")
        defer { try? FileManager.default.removeItem(at: folder) }
        let video = try GeneratedVideo.make(width: width, height: height, frames: 8, in: folder)
        let result = try LiteVisionExecutable.run(["track"] + DetectTrackCLITests.models + [video])
        #expect(result.status == 0, "\(result.errors)")
        #expect(result.output.split(separator: "\n").filter { $0.hasPrefix("frame ") }.count == 8, "\(result.output)")
    }
}
