import Foundation
import Testing
import LiteVisionTestSupport
import LiteVisionVideo

extension VideoTests {
    @Suite("Files that are not videos") struct BadInput {
        private let scratch = ScratchDirectory()

        @Test("a missing file")
        func missing() {
            let path = scratch.path("nothing-here.mp4")
            #expect(throws: VideoError.fileNotReadable(path: path, reason: "no such file")) {
                try VideoDecoder(path: path)
            }
        }

        @Test("an empty file is reported as empty")
        func empty() throws {
            let path = try scratch.write(Data(), named: "empty.mp4")
            let error = try #require(throws: VideoError.self) { try VideoDecoder(path: path) }
            guard case let .fileNotReadable(errorPath, reason) = error else {
                Issue.record("expected fileNotReadable, got \(error)")
                return
            }
            #expect(errorPath == path)
            #expect(reason.contains("empty"))
            #expect(error.description.contains("empty"))
        }

        @Test("a directory")
        func directory() throws {
            let path = scratch.url.path
            let error = try #require(throws: VideoError.self) { try VideoDecoder(path: path) }
            guard case let .fileNotReadable(_, reason) = error else {
                Issue.record("expected fileNotReadable, got \(error)")
                return
            }
            #expect(reason.contains("directory"))
        }

        @Test("a text file named .mp4", arguments: ["notes.mp4", "notes.avi"])
        func textFile(_ name: String) throws {
            let path = try scratch.write(Data("shopping list: milk, eggs, a new mug\n".utf8), named: name)
            let error = try #require(throws: VideoError.self) { try VideoDecoder(path: path) }
            guard case let .notAVideo(errorPath, reason) = error else {
                Issue.record("expected notAVideo, got \(error)")
                return
            }
            #expect(errorPath == path)
            #expect(!reason.isEmpty)
        }

        @Test("random bytes behind an MP4 signature")
        func fakeMP4() throws {
            var generator = SeededGenerator(seed: 11)
            var data = Data([0, 0, 0, 0x18] + Array("ftypisom".utf8) + [0, 0, 2, 0] + Array("isomiso2".utf8))
            data += Data((0..<20_000).map { _ in UInt8.random(in: 0...255, using: &generator) })
            let path = try scratch.write(data, named: "fake.mp4")
            #expect(throws: VideoError.self) { try VideoDecoder(path: path) }
        }

        @Test("a still JPEG photo opens as a one-frame video")
        func photo() throws {
            let decoder = try VideoDecoder(path: TestData.image("bird.jpg"))
            #expect(decoder.info.codec == "mjpeg")
            var frames = 0
            #expect(VideoFixtures.decodeAll(decoder) { _ in frames += 1 } == nil)
            #expect(frames == 1)
        }

        @Test("a codec this FFmpeg build cannot decode is named")
        func unsupportedCodec() throws {
            // vtest.avi with its FourCC (in the stream header and the bitmap header) changed from DIV3 to AVS2:
            // FFmpeg 5.1 maps AVS2 to its avs2 codec id but, without libdavs2, has no decoder for it.
            let path = try scratch.write(try AVIPatch.withFourCC("AVS2"), named: "avs2.avi")
            #expect(throws: VideoError.unsupportedCodec(path: path, codec: "avs2")) {
                try VideoDecoder(path: path)
            }
            let error = VideoError.unsupportedCodec(path: path, codec: "avs2")
            #expect(error.description.contains("'avs2'"))
        }

        @Test("a stream that fails packet after packet ends with .corrupt: at once, or leniently after 21, not a hang")
        func undecodableStream() throws {
            // The same frames labelled as lossless JPEG: the MJPEG decoder rejects every packet.
            let path = try scratch.write(try AVIPatch.withFourCC("LJPG"), named: "ljpg.avi")
            let strict = try VideoDecoder(path: path)
            guard case let .corrupt(_, frame, reason)? = VideoFixtures.decodeAll(strict) else {
                Issue.record("strict decoding did not stop at the first undecodable packet")
                return
            }
            #expect(frame == 0 && reason.contains("packet 0 of the video stream could not be decoded"), "\(reason)")
            #expect(strict.damagedPackets == 1 && strict.damage == .corrupt(path: path, frame: 0, reason: reason))

            let decoder = try VideoDecoder(path: path)
            decoder.allowsDamagedData = true
            decoder.maximumConsecutiveDamagedPackets = 20
            let ending = VideoFixtures.decodeAll(decoder)
            guard case let .corrupt(errorPath, frame, reason)? = ending else {
                Issue.record("expected corrupt, got \(String(describing: ending))")
                return
            }
            #expect(errorPath == path && frame == 0)
            #expect(reason.contains("21 packets in a row"))
            #expect(decoder.damagedPackets == 21)
            #expect(try decoder.nextFrame() == nil)
        }
    }
}

/// Copies of vtest.avi with another codec FourCC.
enum AVIPatch {
    /// vtest.avi with both FourCC fields (`strh` handler, `strf` compression) set to `fourCC`.
    static func withFourCC(_ fourCC: String) throws -> Data {
        var data = try VideoFixtures.bytes("vtest.avi")
        let header = data.prefix(4096)
        var patched = 0
        for offset in 0..<(header.count - 4)
        where String(decoding: header[offset..<offset + 4], as: UTF8.self)
            .lowercased() == "div3"
        {
            data.replaceSubrange(offset..<offset + 4, with: Array(fourCC.utf8))
            patched += 1
        }
        precondition(patched == 2, "vtest.avi should name DIV3 twice in its header")
        return data
    }
}
