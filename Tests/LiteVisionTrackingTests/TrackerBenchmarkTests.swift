import LiteVisionTrackingTestSupport
import Testing

/// Prints the tracker's cost per frame. Timings are not asserted (a unit test run is no benchmark); the
/// targets — at most 0.2 ms per frame with 5 objects and 2 ms with 100, release build — are checked with
/// `TrackerBenchmark.benchmark(objects:frames:)` from the project's benchmark.
@Suite("Tracker benchmark")
struct TrackerBenchmarkTests {
    @Test("Per-frame update time", arguments: [5, 100])
    func perFrame(objects: Int) {
        let milliseconds = TrackerBenchmark.benchmark(objects: objects, frames: 200)
        print("ObjectTracker.update with \(objects) objects: \(milliseconds) ms per frame (this build)")
        #expect(milliseconds.isFinite && milliseconds > 0)
    }
}
