import Foundation
import LiteVisionGeometry
import LiteVisionTestSupport
import LiteVisionTrackingTestSupport
import LiteVisionVideo
import Synchronization
import Testing

@testable import LiteVision
@testable import LiteVisionTracking

/// The frame rate an object detector in stream mode measures from its frames' timestamps
/// (`ObjectDetector.results(in:timestamp:)`, `FrameRateMeter`), for the tracker's rules under 20 fps.
@Suite("Frame rate measured from timestamps")
struct MeasuredFrameRateTests {
    /// The rates a meter reports for `timestamps`, one per timestamp.
    static func rates(_ timestamps: [Double]) -> [Double?] {
        var meter = FrameRateMeter()
        return timestamps.map { meter.add($0) }
    }

    @Test("The rate is the inverse of the mean middle interval, from the second frame on")
    func middleInterval() throws {
        let rates = Self.rates((0..<5).map { Double($0) / 10 })
        #expect(rates[0] == nil)
        for rate in rates.dropFirst() { #expect(abs(try #require(rate) - 10) < 1e-9) }
        // One late frame (0.35 s after the last) and one stall of 1.9 s are left out of the middle 11 of 15.
        var timestamps = (0..<8).map { Double($0) / 10 }
        timestamps += [1.05, 2.95] + (1...6).map { 2.95 + Double($0) / 10 }
        #expect(abs(try #require(Self.rates(timestamps).last ?? nil) - 10) < 1e-9)
    }

    @Test("A source that starts dropping frames: the rate follows within the window, held at 20 fps on the way")
    func droppedFrames() throws {
        // 30 fps, then every third frame (a detector that takes one frame in three).
        var timestamps = (0..<20).map { Double($0) / 30 }
        timestamps += (1...40).map { (19 + 3 * Double($0)) / 30 }
        let rates = Self.rates(timestamps)
        #expect(abs(try #require(rates[19]) - 30) < 1e-6)
        // 6 long intervals of 25, 2 of them in the middle 17: 17 frames in 21/30 s.
        #expect(abs(try #require(rates[25]) - 17 * 30 / 21.0) < 1e-6)
        // From 20.8 fps the rate is held on the high side at 20 until it falls under 16.7 fps.
        for index in 29...32 { #expect(try #require(rates[index]) == 20, "frame \(index)") }
        #expect(abs(try #require(rates[33]) - 300.0 / 19) < 1e-6)
        #expect(abs(try #require(rates.last ?? nil) - 10) < 1e-6, "every interval long")
    }

    @Test("A detector taking every first or second frame of a 30 fps camera at random: the side rarely changes")
    func steadyNearThreshold() {
        var state: UInt64 = 12_345
        var timestamps = [0.0]
        for _ in 0..<3000 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            timestamps.append(timestamps[timestamps.count - 1] + (state >> 63 == 0 ? 1.0 : 2.0) / 30)
        }
        let sides = Self.rates(timestamps).compactMap { $0 }.map { $0 < TrackingOptions.lowFrameRateThreshold }
        let changes = zip(sides, sides.dropFirst()).filter { $0 != $1 }.count
        // 14 times; the median of the last 15 intervals, with no hysteresis, changed sides 310 times.
        #expect(changes <= 14, "the rules switched \(changes) times in 3000 frames")
    }

    @Test("The side of 20 fps is held only once 10 intervals are known: a slow first interval decides nothing")
    func firstIntervalsDecideNothing() throws {
        // A 22 fps source whose first frame came 0.07 s after the one before (dropped while the model warmed up).
        let rates = Self.rates([0, 0.07] + (1...40).map { 0.07 + Double($0) / 22 })
        #expect(try #require(rates[1]) < 20, "one interval of 0.07 s: 14 fps")
        #expect(abs(try #require(rates.last ?? nil) - 22) < 1e-6)
        // Held from then on: a 22 fps source that slows to 18 fps stays on the high side, at 20.
        var slowing = (0...20).map { Double($0) / 22 }
        slowing += (1...40).map { 20.0 / 22 + Double($0) / 18 }
        #expect(try #require(Self.rates(slowing).last ?? nil) == 20)
        // Under 16.7 fps it goes low, and comes back only from 24 fps.
        var down = (0...20).map { Double($0) / 22 }
        down += (1...40).map { 20.0 / 22 + Double($0) / 15 }
        let low = Self.rates(down)
        #expect(abs(try #require(low.last ?? nil) - 15) < 1e-6)
        var back = down
        back += (1...40).map { down[down.count - 1] + Double($0) / 23 }
        #expect(try #require(Self.rates(back).last ?? nil) < 20, "23 fps after 15: still held low")
    }

    @Test("Gaps over 2 s, non-finite, repeated and slightly earlier timestamps are left out")
    func oddTimestamps() throws {
        #expect(Self.rates([0, 2.5, 5]) == [nil, nil, nil])
        // After a gap the next interval counts from the frame after it.
        #expect(abs(try #require(Self.rates([0, 0.1, 2.5, 2.55])[3]) - 1 / 0.075) < 1e-9)
        for odd in [Double.nan, .infinity, -.infinity, 0.2, 0.15] {
            let rates = Self.rates([0, 0.1, 0.2, odd, 0.3])
            let before = try #require(rates[3]), after = try #require(rates[4])
            #expect(abs(before - 10) < 1e-9 && abs(after - 10) < 1e-9, "\(odd)")
        }
        #expect(Self.rates([0, .nan, .infinity, -.infinity, 0, 0]) == [nil, nil, nil, nil, nil, nil])
        // Intervals too short to invert: an infinite rate, which is no low frame rate.
        let fast = try #require(Self.rates([0, 1e-310, 2e-310]).last ?? nil)
        var options = TrackingOptions()
        options.frameRate = fast
        #expect(fast == .infinity && !options.isLowFrameRate)
    }

    @Test("A timestamp more than 2 s earlier than the last (another video) starts the measure anew")
    func anotherVideo() throws {
        let rates = Self.rates([10, 10.1, 10.2, 1, 1.04, 1.08])
        #expect(abs(try #require(rates[2]) - 10) < 1e-9)
        #expect(rates[3] == nil)
        #expect(abs(try #require(rates[5]) - 25) < 1e-9)
    }

    /// The IDs a stream session gives a walker 40x100 detected confidently once a frame along
    /// `WalkerPath.stopsAndTurnsBack`, each frame `interval` seconds after the last (no timestamps when nil);
    /// `frameRate` is the options' own.
    static func walkerIDs(interval: Double?, frameRate: Double? = nil) -> Set<Int> {
        var options = TrackingOptions()
        options.frameRate = frameRate
        var session = StreamSession(options: options.resolved(detectionThreshold: 0.5))
        var ids = Set<Int>()
        for (index, x) in WalkerPath.stopsAndTurnsBack.enumerated() {
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

    @Test("resetTracking and an earlier video forget the measured rate; a rate set in the options stays")
    func resetForgetsRate() {
        var session = StreamSession(options: TrackingOptions())
        func frame(at timestamp: Double) -> Double? {
            _ = session.track([], imageWidth: 640, imageHeight: 480, timestamp: timestamp)
            return session.tracker.options.frameRate
        }
        for index in 0..<2 { _ = frame(at: Double(index) / 10) }
        #expect(frame(at: 0.2).map { abs($0 - 10) < 1e-9 } == true)
        session.reset()
        #expect(session.tracker.options.frameRate == nil)
        #expect(frame(at: 0.3) == nil, "one frame after the reset: no interval yet")
        #expect(frame(at: 0.4).map { abs($0 - 10) < 1e-9 } == true)
        #expect(frame(at: -5) == nil, "a timestamp 5 s earlier: another video")
        var options = TrackingOptions()
        options.frameRate = 12
        var fixed = StreamSession(options: options)
        for index in 0..<3 { _ = fixed.track([], imageWidth: 640, imageHeight: 480, timestamp: Double(index) / 30) }
        #expect(fixed.tracker.options.frameRate == 12)
        fixed.reset()
        #expect(fixed.tracker.options.frameRate == 12)
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
