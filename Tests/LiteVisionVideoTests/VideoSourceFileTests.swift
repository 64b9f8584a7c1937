import Foundation
import Testing
import LiteVisionTestSupport
import LiteVisionVideo

extension VideoTests {
    @Suite("VideoSource: a file played as a camera (.latest), read frame by frame (.every)") struct FileSource {
        private let scratch = ScratchDirectory()

        private func now() -> Double { ProcessInfo.processInfo.systemUptime }

        /// A file source delivering the latest frame at `speed` times real time.
        private func camera(_ path: String, speed: Double = 1) throws -> VideoSource {
            var options = VideoSource.Options()
            options.delivery = .latest
            options.playbackSpeed = speed
            return try VideoSource(path, options: options)
        }

        @Test("a slow consumer makes frames drop; the indices it gets keep increasing")
        func slowConsumer() throws {
            // cup.mp4 at 26.8 fps (37 ms a frame), a consumer that needs 100 ms a frame, for about 1.2 s.
            let source = try camera(VideoFixtures.video("cup.mp4"))
            let start = now()
            var indices: [Int] = []
            while now() - start < 1.2, let frame = try source.next() {
                indices.append(frame.index)
                Thread.sleep(forTimeInterval: 0.1)
            }
            let elapsed = now() - start
            print("live 1x, 100 ms consumer: \(indices.count) frames delivered, \(source.statistics.dropped) dropped")
            source.stop()
            #expect(try source.next() == nil)
            #expect(indices.count >= 8 && indices.count <= 14, "\(indices.count) frames in \(elapsed) s")
            #expect(zip(indices, indices.dropFirst()).allSatisfy { $0 < $1 })
            #expect(indices.last! - indices.first! > indices.count)  // there are gaps
            #expect(source.statistics.dropped >= 10)
            // Each delivered frame is the latest one due: about 2.7 frames apart.
            let perStep = Double(indices.last! - indices.first!) / Double(indices.count - 1)
            #expect(perStep > 2 && perStep < 4.5, "\(perStep) frames per step")
        }

        @Test("a fast consumer at 8x speed gets nearly every frame, at the right pace")
        func fastConsumer() throws {
            let source = try camera(VideoFixtures.video("cup.mp4"), speed: 8)
            let start = now()
            var indices: [Int] = []
            var timestamps: [Double] = []
            while let frame = try source.next() {
                indices.append(frame.index)
                timestamps.append(frame.timestamp)
            }
            let elapsed = now() - start
            #expect(source.error == nil)
            #expect(indices.count + source.statistics.dropped == 217)
            #expect(source.statistics.decoded == 217 && source.statistics.received == 217)
            // All 217 on an idle machine; a loaded one (other test suites, other processes) can wake the consumer
            // late enough to drop some: a fifth is the margin (190 measured with three busy loops on 2 cores).
            #expect(indices.count >= 174, "\(indices.count) frames, \(source.statistics.dropped) dropped")
            print("live 8x: \(indices.count) frames delivered, \(source.statistics.dropped) dropped in \(elapsed) s")
            #expect(zip(indices, indices.dropFirst()).allSatisfy { $0 < $1 })
            // The video lasts 8.07 s between its first and last frames: 1.01 s at 8x.
            #expect(elapsed > 0.9 && elapsed < 1.6, "played in \(elapsed) s")
            #expect(abs(timestamps.last! - 8.067) < 0.01)
        }

        @Test("released early, the source stops its thread")
        func stopsEarly() throws {
            let start = now()
            do {
                let source = try camera(VideoFixtures.video("vtest.avi"))
                #expect(try source.next()?.index == 0)
                #expect(source.info.codec == "msmpeg4v3")
            }
            // Releasing joins the producer thread without playing the 79 s video.
            #expect(now() - start < 0.5)
        }

        @Test("invalid speeds and files", arguments: [0, -1, Double.infinity, .nan])
        func invalidSpeed(_ speed: Double) {
            #expect(throws: VideoError.self) {
                try camera(VideoFixtures.video("traffic_frames.mp4"), speed: speed)
            }
        }

        @Test("a missing file")
        func missingFile() {
            let path = scratch.path("gone.mp4")
            #expect(throws: VideoError.fileNotReadable(path: path, reason: "no such file")) {
                try VideoSource(path)
            }
        }

        @Test("a damaged file ends with its error")
        func damaged() throws {
            let path = try scratch.write(try AVIPatch.withFourCC("LJPG"), named: "ljpg.avi")
            let source = try VideoSource(path)
            #expect(source.delivery == .every && source.kind == .file)
            #expect(throws: VideoError.self) { try source.next() }
            guard case .corrupt? = source.error else {
                Issue.record("expected corrupt, got \(String(describing: source.error))")
                return
            }
            #expect(source.statistics.damaged >= 1)
            #expect(try source.next() == nil)  // the error is thrown once
        }

        @Test("read frame by frame (.every, the default for files), every frame comes, in order, with its timestamp")
        func everyFrame() async throws {
            let source = try VideoSource(VideoFixtures.video("cup.mp4"))
            var indices: [Int] = []
            for try await frame in source.frames {
                indices.append(frame.index)
                #expect(frame.image.orientation == .up && frame.pixels.width == 640 && frame.pixels.height == 480)
                if indices.count % 50 == 0 { try await Task.sleep(for: .milliseconds(50)) }  // a slow consumer
            }
            #expect(indices == Array(0..<217))
            #expect(source.statistics.dropped == 0 && source.statistics.decoded == 217)
        }
    }
}
