import Foundation
import Testing
import LiteVisionTestSupport
import LiteVisionVideo

extension VideoTests {
    @Suite("Damaged and truncated videos") struct Damaged {
        private let scratch = ScratchDirectory()

        /// Decodes `path` and checks that it ends normally or with `.corrupt`, that its first `intact` frames are
        /// those of the pristine file, and that it yields between `minimum` and the pristine count of frames.
        private func expectIntactPrefix(
            _ path: String, of name: String, intact: Int, minimum: Int
        ) throws
            -> VideoDecoder
        {
            let pristine = try VideoFixtures.pristineFingerprints(name)
            let decoder = try VideoDecoder(path: path)
            var prints: [UInt64] = []
            let ending = VideoFixtures.decodeAll(decoder) { prints.append(VideoFixtures.fingerprint($0.image)) }
            if let ending {
                guard case let .corrupt(_, frame, _) = ending else {
                    Issue.record("unexpected ending \(ending)")
                    return decoder
                }
                #expect(frame == prints.count)
            }
            #expect(prints.count >= minimum && prints.count <= pristine.count)
            let matching = zip(prints, pristine).prefix { $0 == $1 }.count
            #expect(matching >= intact, "only the first \(matching) frames are intact")
            return decoder
        }

        @Test("the first 60% of cup.mp4 (index at the front) gives its first frames")
        func truncatedMP4() throws {
            let path = try scratch.truncatedCopy(of: "cup.mp4", fraction: 0.6)
            // ffprobe counts 118 frames in this copy; the last ones before the cut may be concealed.
            _ = try expectIntactPrefix(path, of: "cup.mp4", intact: 110, minimum: 110)
        }

        @Test("the first 60% of vtest.avi gives its first frames")
        func truncatedAVI() throws {
            let path = try scratch.truncatedCopy(of: "vtest.avi", fraction: 0.6)
            // ffprobe counts 486 frames in this copy.
            _ = try expectIntactPrefix(path, of: "vtest.avi", intact: 470, minimum: 470)
        }

        @Test("an MP4 whose index (at the end) was cut off is not a video")
        func truncatedMP4WithIndexAtEnd() throws {
            let path = try scratch.truncatedCopy(of: "bottle-detection.mp4", fraction: 0.6)
            let error = try #require(throws: VideoError.self) { try VideoDecoder(path: path) }
            guard case .notAVideo = error else {
                Issue.record("expected notAVideo, got \(error)")
                return
            }
        }

        @Test("an MP4 cut right after its index ends without frames")
        func headerOnly() throws {
            let path = try scratch.truncatedCopy(of: "cup.mp4", fraction: 0.017)  // ftyp + moov only
            let decoder = try VideoDecoder(path: path)
            #expect(decoder.info.frameCount == 217)
            let ending = VideoFixtures.decodeAll(decoder)
            if let ending, case .corrupt = ending {} else { #expect(ending == nil) }
            #expect(decoder.framesDecoded < 5)
        }

        @Test(
            "64 KiB of noise in the middle: the frames before it are intact",
            arguments: [
                ("cup.mp4", 90), ("vtest.avi", 380),
            ])
        func overwritten(_ name: String, intact: Int) throws {
            var data = try VideoFixtures.bytes(name)
            var generator = SeededGenerator(seed: 7)
            let start = data.count / 2
            for offset in start..<(start + 65_536) { data[offset] = UInt8.random(in: 0...255, using: &generator) }
            let path = try scratch.write(data, named: "noisy-\(name)")
            // Measured: cup.mp4 gives 205 of 217 frames (12 damaged packets skipped), vtest.avi 788 of 795.
            let decoder = try expectIntactPrefix(path, of: name, intact: intact, minimum: intact + 50)
            if name == "cup.mp4" { #expect(decoder.damagedPackets > 0) }
        }

        @Test(
            "random byte changes never crash or hang the decoder", .timeLimit(.minutes(1)),
            arguments: ["traffic_frames.mp4", "vtest.avi"])
        func fuzz(_ name: String) throws {
            let original = try VideoFixtures.bytes(name).prefix(200_000)
            var generator = SeededGenerator(seed: 2024)
            var outcomes: [String: Int] = [:]
            for round in 0..<25 {
                var data = Data(original)
                let changes = Int.random(in: 1...40, using: &generator)
                for _ in 0..<changes {
                    // Half of the changes hit the headers and indexes, where lengths and offsets live.
                    let region =
                        Bool.random(using: &generator)
                        ? 0..<min(data.count, 4096)
                        : (name.hasSuffix(".mp4") ? max(0, data.count - 1100)..<data.count : 0..<data.count)
                    data[Int.random(in: region, using: &generator)] = UInt8.random(in: 0...255, using: &generator)
                }
                let path = try scratch.write(data, named: "fuzz\(round)-\(name)")
                let outcome: String
                do {
                    let decoder = try VideoDecoder(path: path)
                    outcome = VideoFixtures.decodeAll(decoder).map(VideoFixtures.kind) ?? "ended"
                } catch {
                    outcome = VideoFixtures.kind(error)
                }
                outcomes[outcome, default: 0] += 1
            }
            #expect(outcomes.values.reduce(0, +) == 25)
            print("fuzzed \(name):", outcomes.sorted { $0.key < $1.key })
        }
    }
}
