import Foundation
import Testing
import LiteVisionTestSupport
import LiteVisionVideo

extension VideoTests {
    @Suite("Live playback") struct Live {
        private let scratch = ScratchDirectory()

        private func now() -> Double { ProcessInfo.processInfo.systemUptime }

        @Test("a slow consumer makes frames drop; the indices it gets keep increasing")
        func slowConsumer() throws {
            // cup.mp4 at 26.8 fps (37 ms a frame), a consumer that needs 100 ms a frame, for about 1.2 s.
            let source = try LiveFrameSource(path: VideoFixtures.video("cup.mp4"))
            let start = now()
            var indices: [Int] = []
            while now() - start < 1.2, let frame = source.next() {
                indices.append(frame.index)
                Thread.sleep(forTimeInterval: 0.1)
            }
            let elapsed = now() - start
            print("live 1x, 100 ms consumer: \(indices.count) frames delivered, \(source.droppedFrames) dropped")
            source.stop()
            #expect(source.next() == nil)
            #expect(indices.count >= 8 && indices.count <= 14, "\(indices.count) frames in \(elapsed) s")
            #expect(zip(indices, indices.dropFirst()).allSatisfy { $0 < $1 })
            #expect(indices.last! - indices.first! > indices.count)  // there are gaps
            #expect(source.droppedFrames >= 10)
            // Each delivered frame is the latest one due: about 2.7 frames apart.
            let perStep = Double(indices.last! - indices.first!) / Double(indices.count - 1)
            #expect(perStep > 2 && perStep < 4.5, "\(perStep) frames per step")
        }

        @Test("a fast consumer at 8x speed gets nearly every frame, at the right pace")
        func fastConsumer() throws {
            let source = try LiveFrameSource(path: VideoFixtures.video("cup.mp4"), speed: 8)
            let start = now()
            var indices: [Int] = []
            var timestamps: [Double] = []
            while let frame = source.next() {
                indices.append(frame.index)
                timestamps.append(frame.timestamp)
            }
            let elapsed = now() - start
            #expect(source.error == nil)
            #expect(indices.count + source.droppedFrames == 217)
            // All 217 on an idle machine; a loaded one (other test suites, other processes) can wake the consumer
            // late enough to drop some: a fifth is the margin (190 measured with three busy loops on 2 cores).
            #expect(indices.count >= 174, "\(indices.count) frames, \(source.droppedFrames) dropped")
            print("live 8x: \(indices.count) frames delivered, \(source.droppedFrames) dropped in \(elapsed) s")
            #expect(zip(indices, indices.dropFirst()).allSatisfy { $0 < $1 })
            // The video lasts 8.07 s between its first and last frames: 1.01 s at 8x.
            #expect(elapsed > 0.9 && elapsed < 1.6, "played in \(elapsed) s")
            #expect(abs(timestamps.last! - 8.067) < 0.01)
        }

        @Test("released early, the source stops its thread")
        func stopsEarly() throws {
            let start = now()
            do {
                let source = try LiveFrameSource(path: VideoFixtures.video("vtest.avi"))
                #expect(source.next()?.index == 0)
                #expect(source.info.codec == "msmpeg4v3")
            }
            // Releasing joins the producer thread without playing the 79 s video.
            #expect(now() - start < 0.5)
        }

        @Test("invalid speeds and files", arguments: [0, -1, Double.infinity, .nan])
        func invalidSpeed(_ speed: Double) {
            #expect(throws: VideoError.self) {
                try LiveFrameSource(path: VideoFixtures.video("traffic_frames.mp4"), speed: speed)
            }
        }

        @Test("a missing file")
        func missingFile() {
            let path = scratch.path("gone.mp4")
            #expect(throws: VideoError.fileNotReadable(path: path, reason: "no such file")) {
                try LiveFrameSource(path: path)
            }
        }

        @Test("a damaged file ends with its error")
        func damaged() throws {
            let path = try scratch.write(try AVIPatch.withFourCC("LJPG"), named: "ljpg.avi")
            let source = try LiveFrameSource(path: path, speed: 100)
            #expect(source.next() == nil)
            guard case .corrupt? = source.error else {
                Issue.record("expected corrupt, got \(String(describing: source.error))")
                return
            }
            #expect(source.damagedPackets >= 1)
        }
    }
}
