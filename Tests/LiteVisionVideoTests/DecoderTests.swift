import Testing
import LiteVisionImaging
import LiteVisionVideo

extension VideoTests {
    @Suite("Decoding the shared videos") struct Decoding {
        @Test("info matches what ffprobe reports", arguments: ReferenceVideo.all)
        func info(_ reference: ReferenceVideo) throws {
            let info = try VideoDecoder(path: VideoFixtures.video(reference.name)).info
            #expect(info.width == reference.width)
            #expect(info.height == reference.height)
            #expect(info.codec == reference.codec)
            #expect(abs(info.frameRate - reference.frameRate) < 0.001)
            #expect(info.frameCount == reference.frames)
            #expect(abs((info.duration ?? 0) - reference.duration) < 0.01)
            #expect(info.rotation == 0 && info.orientation == .up)
        }

        @Test("every frame decodes, in order, with the right size and timestamps", arguments: ReferenceVideo.all)
        func allFrames(_ reference: ReferenceVideo) throws {
            let decoder = try VideoDecoder(path: VideoFixtures.video(reference.name))
            var count = 0
            var previousTimestamp = -1.0
            var fingerprints = Set<UInt64>()
            var first: ImageBuffer?
            let ending = VideoFixtures.decodeAll(decoder) { frame in
                #expect(frame.index == count)
                #expect(frame.image.width == reference.width && frame.image.height == reference.height)
                #expect(frame.image.format == .rgb8 && frame.image.bytesPerRow == reference.width * 3)
                #expect(frame.image.pixels.count == reference.width * reference.height * 3)
                #expect(frame.timestamp > previousTimestamp)
                previousTimestamp = frame.timestamp
                if count == 0 { first = frame.image }
                fingerprints.insert(VideoFixtures.fingerprint(frame.image))
                count += 1
            }
            #expect(ending == nil)
            #expect(count == reference.frames)
            #expect(decoder.framesDecoded == reference.frames)
            #expect(decoder.damagedPackets == 0)
            // The frames move: almost all of them differ from each other.
            #expect(fingerprints.count > reference.frames * 9 / 10)
            // Timestamps run from 0 to the start of the last frame.
            let lastExpected = Double(reference.frames - 1) / reference.frameRate
            #expect(abs(previousTimestamp - lastExpected) < 0.05)
            // Channel means of frame 0 agree with FFmpeg's own RGB conversion (measured: equal to 0.01).
            let means = VideoFixtures.channelMeans(try #require(first))
            #expect(abs(means.red - reference.firstFrameMeans.red) < 0.5)
            #expect(abs(means.green - reference.firstFrameMeans.green) < 0.5)
            #expect(abs(means.blue - reference.firstFrameMeans.blue) < 0.5)
            // Once ended, the decoder stays ended.
            #expect(try decoder.nextFrame() == nil)
        }

        @Test("forEachFrame visits every frame and passes the body's error through")
        func forEachFrame() throws {
            let decoder = try VideoDecoder(path: VideoFixtures.video(ReferenceVideo.traffic.name))
            var indices: [Int] = []
            try decoder.forEachFrame { indices.append($0.index) }
            #expect(indices == Array(0..<20))

            struct Stop: Error {}
            let again = try VideoDecoder(path: VideoFixtures.video(ReferenceVideo.traffic.name))
            var seen = 0
            #expect(throws: Stop.self) {
                try again.forEachFrame { _ in
                    seen += 1
                    if seen == 3 { throw Stop() }
                }
            }
            #expect(seen == 3)
        }

        @Test("the decoder works with one thread and with FFmpeg's automatic choice too", arguments: [1, 0])
        func threadCounts(_ threads: Int) throws {
            let reference = try VideoFixtures.pristineFingerprints(ReferenceVideo.traffic.name)
            let decoder = try VideoDecoder(path: VideoFixtures.video(ReferenceVideo.traffic.name), threadCount: threads)
            var prints: [UInt64] = []
            #expect(VideoFixtures.decodeAll(decoder) { prints.append(VideoFixtures.fingerprint($0.image)) } == nil)
            #expect(prints == reference)
        }
    }
}
