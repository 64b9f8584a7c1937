import Foundation
import LiteVisionGeometry
import LiteVisionTestSupport
import LiteVisionTracking
import LiteVisionVideo
import Synchronization
import Testing

@testable import LiteVision

/// The frame rate an object detector in stream mode measures from its frames' timestamps
/// (`ObjectDetector.results(in:timestamp:)`, `FrameRateMeter`), for the tracker's rules under 20 fps.
@Suite("Frame rate measured from timestamps")
struct MeasuredFrameRateTests {
    /// The rates a meter reports for `timestamps`, one per timestamp.
    static func rates(_ timestamps: [Double]) -> [Double?] {
        var meter = FrameRateMeter()
        return timestamps.map { meter.add($0) }
    }

    @Test("The rate is the inverse of the median interval, from the second frame on")
    func medianInterval() throws {
        let rates = Self.rates((0..<5).map { Double($0) / 10 })
        #expect(rates[0] == nil)
        for rate in rates.dropFirst() { #expect(abs(try #require(rate) - 10) < 1e-9) }
        // One late frame (0.35 s after the last) and one stall of 1.9 s do not move the median of the rest.
        var timestamps = (0..<8).map { Double($0) / 10 }
        timestamps += [1.05, 2.95] + (1...6).map { 2.95 + Double($0) / 10 }
        #expect(abs(try #require(Self.rates(timestamps).last ?? nil) - 10) < 1e-9)
    }

    @Test("A source that starts dropping frames: the rate follows within the window of 15 intervals")
    func droppedFrames() throws {
        // 30 fps, then every third frame (a detector that takes one frame in three).
        var timestamps = (0..<20).map { Double($0) / 30 }
        timestamps += (1...16).map { (19 + 3 * Double($0)) / 30 }
        let rates = Self.rates(timestamps)
        #expect(abs(try #require(rates[19]) - 30) < 1e-6)
        #expect(abs(try #require(rates[27]) - 10) < 1e-6, "8 of 15 intervals long: the median is long")
        #expect(abs(try #require(rates.last ?? nil) - 10) < 1e-6)
    }

    @Test("Gaps over 2 s, repeated and non-finite timestamps are left out; an earlier one starts anew")
    func oddTimestamps() throws {
        #expect(Self.rates([0, 2.5, 5]) == [nil, nil, nil])
        #expect(Self.rates([0, .nan, .infinity, -.infinity, 0, 0]) == [nil, nil, nil, nil, nil, nil])
        let rates = Self.rates([0, 0.1, 0.2, 0.3, 0.04, 0.08, 0.12])
        #expect(abs(try #require(rates[3]) - 10) < 1e-9)
        #expect(rates[4] == nil, "a timestamp before the last: another video")
        #expect(abs(try #require(rates[6]) - 25) < 1e-9)
    }

    /// The IDs a stream session gives a walker 40x100 detected confidently once a frame: walking right 16 px a frame
    /// for 10 frames, standing for 3, walking back left 16 px a frame for 6 (`LowFrameRateTests.walkerIDs`), each
    /// frame `interval` seconds after the last (no timestamps when nil); `frameRate` is the options' own.
    static func walkerIDs(interval: Double?, frameRate: Double? = nil) -> Set<Int> {
        var options = TrackingOptions()
        options.frameRate = frameRate
        var session = StreamSession(options: options.resolved(detectionThreshold: 0.5))
        var xs = (0...10).map { 100 + 16 * Double($0) }
        xs += [260, 260, 260] + (1...6).map { 260 - 16 * Double($0) }
        var ids = Set<Int>()
        for (index, x) in xs.enumerated() {
            let detection = TrackerDetection(box: BoundingBox(x: x, y: 100, width: 40, height: 100), score: 0.9)
            let timestamp = interval.map { Double(index) * $0 }
            let tracks = session.track([detection], imageWidth: 640, imageHeight: 480, timestamp: timestamp)
            ids.formUnion(tracks.map(\.id))
        }
        return ids
    }

    @Test("In a detector's session, timestamps 1/8 s apart give the walker one ID; 1/30 s or none, two")
    func sessionUsesMeasuredRate() {
        #expect(Self.walkerIDs(interval: 1.0 / 8) == [0])
        #expect(Self.walkerIDs(interval: 1.0 / 30).count > 1)
        #expect(Self.walkerIDs(interval: nil).count > 1)
        // A frame rate in the options wins over the timestamps, either way.
        #expect(Self.walkerIDs(interval: 1.0 / 8, frameRate: 30).count > 1)
        #expect(Self.walkerIDs(interval: 1.0 / 30, frameRate: 8) == [0])
    }

    @Test("resetTracking forgets the measured rate")
    func resetForgetsRate() {
        var session = StreamSession(options: TrackingOptions())
        for index in 0..<3 {
            _ = session.track([], imageWidth: 640, imageHeight: 480, timestamp: Double(index) / 10)
        }
        #expect(session.tracker.options.frameRate.map { abs($0 - 10) < 1e-9 } == true)
        session.reset()
        #expect(session.tracker.options.frameRate == nil)
        _ = session.track([], imageWidth: 640, imageHeight: 480, timestamp: 0)
        #expect(session.tracker.options.frameRate == nil, "one frame after the reset: no interval yet")
    }

    /// The frame rate the tracker of `detector` goes by now.
    static func trackerFrameRate(_ detector: ObjectDetector) -> Double? {
        detector.loaded.engine?.session.withLock { $0.tracker.options.frameRate }
    }

    @Test("A VideoPipeline on vtest.avi (10 fps) and cup.mp4 (26.8 fps) gives each tracker its source's rate")
    func pipelineMeasuresRealVideo() async throws {
        let sources = try ["video/vtest.avi", "video/cup.mp4"].map { try VideoSource(TestData.path($0)) }
        let options = ObjectDetectorOptions()
        options.modelDirectory = TestData.path("models")
        options.processing.threadCount = 1
        let pipeline = try VideoPipeline(sources: sources, options: options)
        let seen = Mutex([0, 0])
        await pipeline.run { result in
            let counts = seen.withLock {
                $0[result.sourceIndex] += 1
                return $0
            }
            if counts.allSatisfy({ $0 >= 20 }) { DispatchQueue.global().async { pipeline.stop() } }
        }
        #expect(seen.withLock { $0 }.allSatisfy { $0 >= 20 })
        let vtest = try #require(Self.trackerFrameRate(pipeline.detectors[0]))
        let cup = try #require(Self.trackerFrameRate(pipeline.detectors[1]))
        #expect(abs(vtest - 10) < 1e-6, "vtest.avi: \(vtest) fps")
        #expect(abs(cup - 26.777) < 0.01, "cup.mp4: \(cup) fps")
        // The same detector without timestamps measures nothing.
        let alone = try ObjectDetector(options: options)
        let source = try VideoSource(TestData.path("video/vtest.avi"))
        for _ in 0..<3 { _ = try alone.results(in: try #require(try source.next()).image) }
        source.stop()
        #expect(Self.trackerFrameRate(alone) == nil)
    }
}
