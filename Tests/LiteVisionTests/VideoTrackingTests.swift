import Foundation
import LiteVision
import LiteVisionTestSupport
import LiteVisionVideo
import Synchronization
import Testing

@Suite("Tracking on real video")
struct VideoTrackingTests {
    static func streamDetector(multiple: Bool = false) throws -> ObjectDetector {
        let options = ObjectDetectorOptions()
        options.shouldEnableMultipleObjects = multiple
        options.modelDirectory = TestData.path("models")
        return try ObjectDetector(options: options)
    }

    @Test("cup.mp4, one object: the returned object keeps one tracking ID in at least 90% of the frames with an object")
    func cup() throws {
        let detector = try Self.streamDetector()
        let decoder = try VideoDecoder(path: TestData.path("video/cup.mp4"))
        var ids: [Int] = []
        var frames = 0
        while let frame = try decoder.nextFrame() {
            frames += 1
            let objects = try detector.results(
                in: VisionImage(buffer: frame.image, orientation: decoder.info.orientation))
            #expect(objects.count <= 1)
            ids += objects.compactMap(\.trackingID)
        }
        #expect(frames > 100)
        #expect(ids.count >= frames * 3 / 4, "an object in most frames of the mug clip")
        let counts = Dictionary(grouping: ids, by: { $0 }).mapValues(\.count)
        let dominant = counts.values.max() ?? 0
        #expect(Double(dominant) >= 0.9 * Double(ids.count), "ID counts: \(counts)")
    }

    @Test("cup.mp4 with a fifth of its frames dropped, as a live source on a busy machine drops them: one ID")
    func cupWithDroppedFrames() throws {
        // The mug turns in the clip: its box narrows to half its width and widens again, and with frames missing it
        // does so in jumps, with nothing near it. Measured over these eight drop patterns: the dominant ID holds every
        // frame in all 8; before the tracker accepted a narrow box with no other track near it as the mug's new size
        // (tenth round of `docs/tracking-quality.md`), in 4 (the others 0.73-0.78).
        var shares: [Double] = []
        for seed in 1...8 as ClosedRange<UInt64> {
            let detector = try Self.streamDetector()
            let decoder = try VideoDecoder(path: TestData.path("video/cup.mp4"))
            var random = SeededGenerator(seed: seed)
            var ids: [Int] = []
            var processed = 0
            while let frame = try decoder.nextFrame() {
                guard Double.random(in: 0..<1, using: &random) >= 0.2 else { continue }
                processed += 1
                let objects = try detector.results(
                    in: VisionImage(buffer: frame.image, orientation: decoder.info.orientation))
                ids += objects.compactMap(\.trackingID)
            }
            #expect(processed > 100 && ids.count >= processed * 3 / 4)
            let counts = Dictionary(grouping: ids, by: { $0 }).mapValues(\.count)
            shares.append(Double(counts.values.max() ?? 0) / Double(max(1, ids.count)))
        }
        #expect(shares.filter { $0 >= 0.9 }.count >= 7, "the dominant ID's share of the frames, per pattern: \(shares)")
    }

    @Test("cup.mp4 with classification: the mug's label does not flicker from frame to frame")
    func labelsDoNotFlicker() throws {
        let options = ObjectDetectorOptions()
        options.shouldEnableClassification = true
        options.modelDirectory = TestData.path("models")
        let detector = try ObjectDetector(options: options)
        let decoder = try VideoDecoder(path: TestData.path("video/cup.mp4"))
        var texts: [String] = []
        while let frame = try decoder.nextFrame() {
            let objects = try detector.results(
                in: VisionImage(buffer: frame.image, orientation: decoder.info.orientation))
            if let object = objects.first { texts.append(object.labels.first?.text ?? "") }
        }
        let labeled = texts.filter { !$0.isEmpty }
        #expect(labeled.count >= texts.count / 2, "most frames carry a label: \(Set(texts))")
        let changes = zip(texts, texts.dropFirst()).filter { $0 != $1 }.count
        // Classification runs every 5 frames on a moving, partly hidden mug; smoothing keeps the label steady.
        #expect(changes <= 6, "label changed \(changes) times over \(texts.count) frames: \(texts)")
    }

    @Test("Frames from several threads keep the stream state consistent")
    func concurrentFrames() throws {
        let detector = try Self.streamDetector(multiple: true)
        let decoder = try VideoDecoder(path: TestData.path("video/cup.mp4"))
        var images: [VisionImage] = []
        while images.count < 24, let frame = try decoder.nextFrame() { images.append(VisionImage(buffer: frame.image)) }
        let results = Mutex([[DetectedObject]]())
        let frames = images
        DispatchQueue.concurrentPerform(iterations: frames.count) { index in
            if let objects = try? detector.results(in: frames[index]) { results.withLock { $0.append(objects) } }
        }
        let all = results.withLock { $0 }
        #expect(all.count == images.count)
        // Every reported object has an ID, and the mug is one track however the frames interleaved.
        let ids = all.flatMap { $0.compactMap(\.trackingID) }
        #expect(all.allSatisfy { $0.allSatisfy { $0.trackingID != nil } })
        #expect(Set(ids).count <= 3, "\(Set(ids))")
    }
}
