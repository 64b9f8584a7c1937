import Foundation
import Testing
import LiteVisionVideo

extension VideoTests {
    @Suite("Decoding speed") struct Speed {
        /// Prints decoding throughput, opening included, best of three runs (a measurement, not a check: run with
        /// `-c release` for meaningful numbers).
        @Test("decode fps of cup.mp4 and vtest.avi", arguments: ["cup.mp4", "vtest.avi"], [1, 2])
        func decodeSpeed(_ name: String, threads: Int) throws {
            var best = Double.infinity, frames = 0, size = ""
            for _ in 0..<3 {
                let start = ProcessInfo.processInfo.systemUptime
                let decoder = try VideoDecoder(path: VideoFixtures.video(name), threadCount: threads)
                frames = 0
                while try decoder.nextFrame() != nil { frames += 1 }
                best = min(best, ProcessInfo.processInfo.systemUptime - start)
                size = "\(decoder.info.width)x\(decoder.info.height)"
            }
            print(
                "decode speed \(name), \(threads) thread(s): \(frames) frames \(size) to RGB in "
                    + "\(String(format: "%.3f", best)) s = \(String(format: "%.0f", Double(frames) / best)) fps")
            #expect(frames > 0)
        }
    }
}
