import Foundation
import Testing
import LiteVisionImaging
import LiteVisionTestSupport
import LiteVisionVideo

extension VideoTests {
    @Suite("Writing videos") struct Encoding {
        private let scratch = ScratchDirectory()

        @Test(
            "30 frames written and read back",
            arguments: [
                (VideoCodecChoice.automatic, "libx264", "h264"), (.mpeg4, "mpeg4", "mpeg4"),
            ])
        func roundTrip(_ choice: VideoCodecChoice, encoderName: String, codec: String) throws {
            let path = scratch.path("clip.mp4")
            let encoder = try VideoEncoder(path: path, width: 320, height: 240, frameRate: 25, codec: choice)
            #expect(encoder.codecName == encoderName)
            for index in 0..<30 {
                try encoder.append(SyntheticClip.frame(index, width: 320, height: 240))
                // While writing, nothing is at the final path yet.
                if index == 10 { #expect(!FileManager.default.fileExists(atPath: path)) }
            }
            try encoder.finish()
            #expect(encoder.frameCount == 30)
            #expect(scratch.contents == ["clip.mp4"])  // the temporary file was renamed, not copied

            let decoder = try VideoDecoder(path: path)
            #expect(decoder.info.width == 320 && decoder.info.height == 240)
            #expect(decoder.info.codec == codec)
            #expect(abs(decoder.info.frameRate - 25) < 0.01)
            #expect(decoder.info.frameCount == 30)
            var worst = 0.0, frames = 0
            let ending = VideoFixtures.decodeAll(decoder) { frame in
                let expected = SyntheticClip.frame(frame.index, width: 320, height: 240)
                worst = max(worst, VideoFixtures.meanAbsoluteDifference(frame.image, expected))
                #expect(abs(frame.timestamp - Double(frame.index) / 25) < 0.001)
                frames += 1
            }
            #expect(ending == nil)
            #expect(frames == 30)
            // Measured worst frames: 1.9 (libx264, crf 20) and 2.0 (mpeg4, q 3) grey levels, mostly chroma
            // subsampling at the sharp edges;
            // a wrong channel order or a shifted frame gives over 20.
            #expect(worst < 4, "mean absolute difference \(worst)")
            print("\(encoderName): worst mean absolute difference \(worst)")
        }

        @Test("BGRA and RGBA input give the same video as RGB", arguments: [PixelFormat.bgra8, .rgba8])
        func fourChannelInput(_ format: PixelFormat) throws {
            func write(_ format: PixelFormat) throws -> [ImageBuffer] {
                let path = scratch.path("\(format).mp4")
                let encoder = try VideoEncoder(path: path, width: 96, height: 64, frameRate: 10)
                for index in 0..<5 {
                    try encoder.append(SyntheticClip.frame(index, width: 96, height: 64, format: format))
                }
                try encoder.finish()
                var images: [ImageBuffer] = []
                #expect(VideoFixtures.decodeAll(try VideoDecoder(path: path)) { images.append($0.image) } == nil)
                return images
            }
            let reference = try write(.rgb8), candidate = try write(format)
            #expect(reference.count == 5 && candidate.count == 5)
            for (a, b) in zip(reference, candidate) {
                // Same pixels in, the same video out but for rounding (a swapped red and blue would differ by about
                // 60): from FFmpeg's aligned staging picture swscale reads RGB and RGBA with vector code that rounds
                // a few chroma samples one level apart (measured: 0.04-0.23 on average).
                #expect(VideoFixtures.meanAbsoluteDifference(a, b) < 0.5)
            }
        }

        @Test("an encoder released without finish() leaves no file")
        func abandoned() throws {
            let path = scratch.path("abandoned.mp4")
            do {
                let encoder = try VideoEncoder(path: path, width: 160, height: 120, frameRate: 30)
                for index in 0..<12 { try encoder.append(SyntheticClip.frame(index, width: 160, height: 120)) }
                #expect(scratch.contents.count == 1)  // the hidden temporary file
                #expect(!FileManager.default.fileExists(atPath: path))
            }
            #expect(scratch.contents.isEmpty)
        }

        @Test("an existing file is replaced only when the new video is complete")
        func replaces() throws {
            let path = scratch.path("old.mp4")
            try Data("previous contents".utf8).write(to: URL(fileURLWithPath: path))
            do {
                let encoder = try VideoEncoder(path: path, width: 64, height: 64, frameRate: 5)
                try encoder.append(SyntheticClip.frame(0, width: 64, height: 64))
            }
            #expect(try String(contentsOfFile: path, encoding: .utf8) == "previous contents")
            let encoder = try VideoEncoder(path: path, width: 64, height: 64, frameRate: 5)
            try encoder.append(SyntheticClip.frame(0, width: 64, height: 64))
            try encoder.finish()
            #expect(try VideoDecoder(path: path).info.codec == "h264")
            #expect(scratch.contents == ["old.mp4"])
        }

        @Test("finishing without frames fails and leaves nothing")
        func noFrames() throws {
            let path = scratch.path("empty.mp4")
            let encoder = try VideoEncoder(path: path, width: 64, height: 64, frameRate: 5)
            #expect(throws: VideoError.self) { try encoder.finish() }
            #expect(scratch.contents.isEmpty)
            // Closed for good.
            #expect(throws: VideoError.self) { try encoder.append(SyntheticClip.frame(0, width: 64, height: 64)) }
        }

        @Test("an image of the wrong size is refused, and the encoder goes on")
        func wrongSize() throws {
            let path = scratch.path("sizes.mp4")
            let encoder = try VideoEncoder(path: path, width: 64, height: 48, frameRate: 5)
            let error = try #require(throws: VideoError.self) {
                try encoder.append(SyntheticClip.frame(0, width: 48, height: 64))
            }
            guard case .invalidArgument = error else {
                Issue.record("expected invalidArgument, got \(error)")
                return
            }
            try encoder.append(SyntheticClip.frame(0, width: 64, height: 48))
            try encoder.finish()
            #expect(try VideoDecoder(path: path).info.width == 64)
        }

        @Test(
            "bad sizes and frame rates are refused",
            arguments: [
                (0, 48, 30.0), (64, 0, 30.0), (16_385, 48, 30.0), (64, 48, 0.0), (64, 48, .nan), (64, 48, -5.0),
            ])
        func badParameters(width: Int, height: Int, frameRate: Double) throws {
            let path = scratch.path("bad.mp4")
            let error = try #require(throws: VideoError.self) {
                try VideoEncoder(path: path, width: width, height: height, frameRate: frameRate)
            }
            guard case .invalidArgument = error else {
                Issue.record("expected invalidArgument, got \(error)")
                return
            }
            #expect(scratch.contents.isEmpty)
        }

        @Test("a directory that does not exist")
        func missingDirectory() throws {
            let path = scratch.path("no/such/dir/out.mp4")
            let error = try #require(throws: VideoError.self) {
                try VideoEncoder(path: path, width: 64, height: 48, frameRate: 30)
            }
            guard case let .encoder(message) = error else {
                Issue.record("expected encoder, got \(error)")
                return
            }
            #expect(message.contains("No such file or directory"))
        }
    }
}
