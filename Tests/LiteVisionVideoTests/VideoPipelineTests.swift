import Foundation
import LiteVision
import LiteVisionTestSupport
import LiteVisionVideo
import Synchronization
import Testing

/// ``VideoPipeline``: several sources through detectors of their own, on the worker threads, with real models,
/// real video files and real RTSP servers on loopback.
@Suite("VideoPipeline: several sources at once", .serialized)
struct VideoPipelineTests {
    /// The built-in detector, one inference thread (the pipeline's workers are the parallelism).
    static func options() -> ObjectDetectorOptions {
        let options = ObjectDetectorOptions()
        options.modelDirectory = TestData.path("models")
        options.shouldEnableMultipleObjects = true
        options.processing.threadCount = 1
        return options
    }

    /// The results of a detector of its own run over every frame of `clip`, by frame index: what a pipeline must
    /// give each source of that clip.
    static func alone(_ clip: String) throws -> [Int: [DetectedObject]] {
        let detector = try ObjectDetector(options: options())
        let source = try VideoSource(clip)
        var results: [Int: [DetectedObject]] = [:]
        while let frame = try source.next() {
            results[frame.index] = try detector.results(in: frame.image, timestamp: frame.timestamp)
        }
        return results
    }

    /// Collects a pipeline's results by source.
    final class Collected: Sendable {
        let results: Mutex<[[VideoPipeline.Result]]>
        init(sources: Int) { results = Mutex(Array(repeating: [], count: sources)) }
        func add(_ result: VideoPipeline.Result) { results.withLock { $0[result.sourceIndex].append(result) } }
        var all: [[VideoPipeline.Result]] { results.withLock { $0 } }
    }

    @Test("three files, one of them twice: each source gets exactly what a detector of its own gives, IDs included")
    func filesMatchDetectorsOfTheirOwn() async throws {
        let cup = TestData.path("video/cup.mp4"), traffic = TestData.path("video/traffic_frames.mp4")
        let sources = try [cup, traffic, cup].map { try VideoSource($0) }
        let pipeline = try VideoPipeline(sources: sources, options: Self.options(), workerCount: 2)
        #expect(pipeline.workerCount == 2 && pipeline.detectors.count == 3)
        let collected = Collected(sources: 3)
        await pipeline.run { collected.add($0) }
        let expected = try await onThread { [try Self.alone(cup), try Self.alone(traffic)] }
        for (index, results) in collected.all.enumerated() {
            let reference = expected[index == 1 ? 1 : 0]
            #expect(results.map(\.frame.index) == Array(0..<reference.count), "source \(index): every frame, in order")
            let mismatches = results.filter { reference[$0.frame.index] != $0.objects }.map(\.frame.index)
            #expect(mismatches.isEmpty, "source \(index): frames \(mismatches.prefix(10)) differ")
            #expect(pipeline.error(ofSource: index) == nil)
        }
        // The cup is tracked: an ID that a shared tracker would have handed to the other sources' objects too.
        let ids = Set(collected.all[0].flatMap { $0.objects.compactMap(\.trackingID) })
        #expect(!ids.isEmpty && ids == Set(collected.all[2].flatMap { $0.objects.compactMap(\.trackingID) }))
    }

    @Test("one file, one worker: run() returns when the file ends, every frame processed")
    func oneFileEnds() throws {
        let source = try VideoSource(TestData.path("video/traffic_frames.mp4"))
        let pipeline = try VideoPipeline(sources: [source], options: Self.options(), workerCount: 1)
        let collected = Collected(sources: 1)
        let finished = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            pipeline.run { collected.add($0) }
            finished.signal()
        }
        #expect(finished.wait(timeout: .now() + 30) == .success, "run() did not return at the end of the file")
        #expect(collected.all[0].map(\.frame.index) == Array(0..<20))
    }

    @Test("four live RTSP cameras, workers too slow for all: every camera gets its share, newest frames, in order")
    func liveSourcesShareFairly() async throws {
        let folder = TestData.temporaryDirectory("pipeline-fair")
        defer { try? FileManager.default.removeItem(at: folder) }
        let clip = try StreamFixtures.concatenated(StreamFixtures.defaultClip, times: 2, in: folder)
        let servers = try (0..<4).map { _ in try RTSPTestServer(clip: clip) }
        let sources = try servers.map { try VideoSource($0.url) }
        let pipeline = try VideoPipeline(sources: sources, options: Self.options(), workerCount: 2)
        let collected = Collected(sources: 4)
        // 25 ms more per frame: two workers serve at most ~70 of the 107 frames a second the cameras send.
        DispatchQueue.global().asyncAfter(deadline: .now() + 6) { pipeline.stop() }
        await pipeline.run { result in
            usleep(25_000)
            collected.add(result)
        }
        let running = servers.allSatisfy { $0.isRunning }
        #expect(running, "the cameras ran throughout (and were kept alive until now)")
        let counts = collected.all.map(\.count)
        let most = counts.max() ?? 0
        #expect(most > 30, "\(counts) frames processed in 6 s")
        // The workers sleep most of each frame's turn, so the share is the scheduler's, not the machine's load.
        #expect(counts.allSatisfy { Double($0) >= 0.8 * Double(most) }, "processed per camera: \(counts)")
        for (index, results) in collected.all.enumerated() {
            let frames = results.map(\.frame.index)
            #expect(zip(frames, frames.dropFirst()).allSatisfy { $0 < $1 }, "camera \(index): in order")
            #expect(sources[index].statistics.dropped > 0, "camera \(index): older frames dropped, not queued")
            #expect(results.allSatisfy { $0.latency < .seconds(2) }, "camera \(index): fresh frames, not a queue")
        }
    }

    @Test("a camera lost for good ends with its error; the others go on")
    func lostSourceEndsAlone() async throws {
        let folder = TestData.temporaryDirectory("pipeline-lost")
        defer { try? FileManager.default.removeItem(at: folder) }
        let clip = try StreamFixtures.concatenated(StreamFixtures.defaultClip, times: 2, in: folder)
        let lost = try RTSPTestServer(clip: clip), kept = try RTSPTestServer(clip: clip)
        var options = VideoSource.Options()
        options.reconnectTimeout = 1
        let sources = try [lost, kept].map { try VideoSource($0.url, options: options) }
        let pipeline = try VideoPipeline(sources: sources, options: Self.options())
        let collected = Collected(sources: 2)
        DispatchQueue.global().asyncAfter(deadline: .now() + 1.5) { lost.stop() }
        DispatchQueue.global().asyncAfter(deadline: .now() + 7) { pipeline.stop() }
        await pipeline.run { collected.add($0) }
        guard case .streamLost? = pipeline.error(ofSource: 0) as? VideoError else {
            Issue.record("source 0 ended with \(String(describing: pipeline.error(ofSource: 0)))")
            return
        }
        #expect(pipeline.error(ofSource: 1) == nil)
        let lastLost = collected.all[0].last?.frame.receivedAt, lastKept = collected.all[1].last?.frame.receivedAt
        #expect(collected.all[1].count > collected.all[0].count + 30, "\(collected.all.map(\.count))")
        #expect(lastLost != nil && lastKept != nil && lastKept! - lastLost! > .seconds(3))
        #expect(kept.isRunning, "the other camera ran throughout (and was kept alive until now)")
    }

    @Test("cancelling the task that awaits run() stops every source")
    func cancellationStops() async throws {
        let folder = TestData.temporaryDirectory("pipeline-cancel")
        defer { try? FileManager.default.removeItem(at: folder) }
        let server = try RTSPTestServer(clip: StreamFixtures.defaultClip)
        let sources = try [VideoSource(server.url), VideoSource(TestData.path("video/bottle-detection.mp4"))]
        let pipeline = try VideoPipeline(sources: sources, options: Self.options())
        let collected = Collected(sources: 2)
        let task = Task { await pipeline.run { collected.add($0) } }
        // Once both sources have results (a loaded machine may take a while to send the first frames).
        let started = ContinuousClock.now
        while !collected.all.allSatisfy({ !$0.isEmpty }) && ContinuousClock.now - started < .seconds(30) {
            try await Task.sleep(for: .milliseconds(100))
        }
        let cancelled = ContinuousClock.now
        task.cancel()
        await task.value
        // The sources stop within a second; the rest is the task's resumption on a machine busy with other tests.
        #expect(ContinuousClock.now - cancelled < .seconds(6))
        #expect(collected.all.allSatisfy { !$0.isEmpty }, "\(collected.all.map(\.count))")
        #expect(server.isRunning)
        #expect(try sources.allSatisfy { try $0.next() == nil }, "the sources are stopped")
    }
}
