import Foundation
import Testing
import LiteVisionImaging
import LiteVisionTestSupport
import LiteVisionVideo

extension VideoTests {
    @Suite("Damaged and truncated videos") struct Damaged {
        private let scratch = ScratchDirectory()

        /// Decodes `path` and checks that it ends normally or with `.corrupt`, that its first `intact` frames are
        /// those of the pristine file, and that it yields between `minimum` and the pristine count of frames.
        private func expectIntactPrefix(
            _ path: String, of name: String, intact: Int, minimum: Int, lenient: Bool = false
        ) throws
            -> VideoDecoder
        {
            let pristine = try VideoFixtures.pristineFingerprints(name)
            let decoder = try VideoDecoder(path: path)
            decoder.allowsDamagedData = lenient
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

        /// The `.corrupt` error decoding `path` ends with (strict), checked to come after exactly `frames` frames.
        private func expectStop(_ path: String, after frames: Int) throws -> String {
            let decoder = try VideoDecoder(path: path)
            var decoded = 0
            let ending = VideoFixtures.decodeAll(decoder) { _ in decoded += 1 }
            guard case let .corrupt(errorPath, frame, reason)? = ending else {
                Issue.record("expected corrupt, got \(String(describing: ending))")
                return ""
            }
            #expect(errorPath == path && frame == frames && decoded == frames)
            #expect(decoder.damage == ending)
            #expect(try decoder.nextFrame() == nil)
            return reason
        }

        @Test(
            "the first 60% of a video gives its first frames, then says it is damaged",
            arguments: [("cup.mp4", 118), ("vtest.avi", 485)])
        func truncated(_ name: String, frames: Int) throws {
            // cup.mp4 (index at the front) keeps 119 packets, vtest.avi 486: the last one cut, which FFmpeg flags
            // as corrupt (its frame would be concealed); the frames before it are intact.
            let path = try scratch.truncatedCopy(of: name, fraction: 0.6)
            _ = try expectIntactPrefix(path, of: name, intact: frames, minimum: frames)
            let reason = try expectStop(path, after: frames)
            #expect(reason.contains("packet \(frames) of the video stream is incomplete or corrupt"), "\(reason)")
        }

        @Test("lenient decoding of a cut file gives every frame FFmpeg can make and reports the damage")
        func truncatedLenient() throws {
            let path = try scratch.truncatedCopy(of: "vtest.avi", fraction: 0.6)
            let decoder = try VideoDecoder(path: path)
            decoder.allowsDamagedData = true
            #expect(VideoFixtures.decodeAll(decoder) == nil)
            #expect(decoder.framesDecoded == 486)
            guard case let .corrupt(_, frame, _)? = decoder.damage else {
                Issue.record("the damage was not recorded")
                return
            }
            #expect(frame == 485)
        }

        @Test("the shared videos, uncut, are not damaged")
        func intactVideos() throws {
            for (name, count) in [
                ("cup.mp4", 217), ("vtest.avi", 795), ("bottle-detection.mp4", 1189), ("traffic_frames.mp4", 20),
            ] {
                let decoder = try VideoDecoder(path: VideoFixtures.video(name))
                #expect(VideoFixtures.decodeAll(decoder) == nil, "\(name)")
                #expect(decoder.framesDecoded == count && decoder.damage == nil && decoder.damagedPackets == 0)
            }
        }

        /// A 16x16 mid-grey JPEG, 4:2:0, for ``DamagedFiles``.
        private func greyBlock() throws -> [UInt8] {
            let grey = ImageBuffer(
                width: 16, height: 16, format: .rgb8, pixels: [UInt8](repeating: 128, count: 16 * 16 * 3))
            return try JPEGEncoder.encode(grey, quality: 80)
        }

        /// An MJPEG AVI of `frames` mid-grey frames of `width` x `height`, a few bytes per 16x16 block.
        private func greyAVI(width: Int, height: Int, frames: Int) throws -> String {
            let avi = try #require(
                DamagedFiles.mjpegAVI(greyJPEG: try greyBlock(), width: width, height: height, frames: frames))
            return try scratch.write(Data(avi), named: "grey-\(width)x\(height).avi")
        }

        @Test("frames declared larger than the pixel limit are refused when the file is opened")
        func pixelLimit() throws {
            let huge = try greyAVI(width: 16000, height: 16000, frames: 1)
            #expect(throws: VideoError.tooLarge(path: huge, width: 16000, height: 16000, limit: 100_000_000)) {
                try VideoDecoder(path: huge)
            }
            let message = VideoError.tooLarge(path: huge, width: 16000, height: 16000, limit: 100_000_000).description
            #expect(message.contains("16000x16000") && message.contains("100000000"))
            // A raw Motion-JPEG stream declares no size: FFmpeg's probing refuses to decode a frame over the limit.
            let frame = try #require(DamagedFiles.greyJPEG(from: try greyBlock(), width: 16000, height: 16000))
            let raw = try scratch.write(Data(frame + frame), named: "huge.mjpeg")
            let error = try #require(throws: VideoError.self) { try VideoDecoder(path: raw) }
            guard case let .notAVideo(_, reason) = error else {
                Issue.record("expected notAVideo, got \(error)")
                return
            }
            #expect(reason.contains("unknown") && reason.contains("100000000"), "\(reason)")
            // The limit is the photos' one, and it can be set.
            let small = try greyAVI(width: 64, height: 48, frames: 2)
            #expect(throws: VideoError.tooLarge(path: small, width: 64, height: 48, limit: 3071)) {
                try VideoDecoder(path: small, maxPixelCount: 3071)
            }
            let decoder = try VideoDecoder(path: small, maxPixelCount: 3072)
            var frames: [ImageBuffer] = []
            #expect(VideoFixtures.decodeAll(decoder) { frames.append($0.image) } == nil)
            #expect(frames.count == 2 && frames.allSatisfy { $0.width == 64 && $0.height == 48 })
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
            guard case let .corrupt(_, frame, reason)? = ending else {
                Issue.record("expected corrupt, got \(String(describing: ending))")
                return
            }
            #expect(
                frame == decoder.framesDecoded && reason.contains("of the 217 frames its container declares"),
                "\(reason)")
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
            // Measured, lenient: cup.mp4 gives 205 of 217 frames (12 damaged packets skipped), vtest.avi 788 of 795.
            let decoder = try expectIntactPrefix(path, of: name, intact: intact, minimum: intact + 50, lenient: true)
            if name == "cup.mp4" { #expect(decoder.damagedPackets > 0) }
            #expect(decoder.damage != nil)
            // Strict: the frames before the damage, then the error. In cup.mp4 the H.264 decoder reports the
            // damage where it is; in vtest.avi neither the AVI demuxer (which skips the noise to the next chunk)
            // nor the MS-MPEG4 decoder reports anything, and only the 7 frames missing at the end tell.
            let strict = try VideoDecoder(path: path)
            let ending = VideoFixtures.decodeAll(strict)
            guard case let .corrupt(_, frame, reason)? = ending else {
                Issue.record("strict decoding went through the noise: \(String(describing: ending))")
                return
            }
            if name == "cup.mp4" {
                #expect(frame >= intact && frame < decoder.framesDecoded, "\(reason)")
            } else {
                #expect(frame == 788 && reason.contains("788 of the 795 frames"), "\(reason)")
            }
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
            // Damage is reported as damage: never as an encoder, argument or resource failure, and some of the
            // mutants must be found damaged (a decoder that ignored every error would end them all cleanly).
            let damageKinds: Set = ["ended", "corrupt", "notAVideo", "unsupportedCodec", "tooLarge"]
            #expect(Set(outcomes.keys).isSubset(of: damageKinds), "unexpected outcomes: \(outcomes)")
            #expect(outcomes["corrupt", default: 0] + outcomes["notAVideo", default: 0] >= 5, "\(outcomes)")
            print("fuzzed \(name):", outcomes.sorted { $0.key < $1.key })
        }
    }
}
