import LiteVisionTracking
import LiteVisionTrackingTestSupport
import Testing

/// The tracker on the named synthetic scenarios, from simulated detections (no model).
///
/// Thresholds: on clean detections (boxes off by 2 %, partly hidden objects boxed by their visible part with a
/// weak score, mostly hidden ones missed) the tracker makes no ID switch on any scenario and IDF1 stays at or
/// above 0.95 (measured: 0.98 to 1.0). With a realistic detector (3 % noise, 5 % random misses, 0.2 false
/// positives per frame), crossing and occlusion stay free of ID switches with IDF1 >= 0.9 for every seed
/// (measured 0.92 to 0.97); the misses and false positives, which no tracker can undo, are what keeps IDF1
/// under 1.
@Suite("Tracking the named scenarios")
struct ScenarioTrackingTests {
    static let scenarios = Scenario.named

    private func evaluate(
        _ scenario: Scenario, _ simulator: DetectionSimulator,
        options: TrackingOptions = .init()
    ) -> (tracker: MOTMetrics, baseline: MOTMetrics, truth: ScenarioTruth) {
        let truth = ScenarioTruth(scenario)
        let detections = simulator.trackerInput(for: truth)
        let tracked = TrackingEvaluation.run(options: options, detections: detections, scenario: scenario)
        let baseline = TrackingEvaluation.runBaseline(detections: detections)
        return (
            TrackingEvaluation.metrics(tracked, truth: truth), TrackingEvaluation.metrics(baseline, truth: truth), truth
        )
    }

    @Test("Clean detections: no ID switch, IDF1 >= 0.95", arguments: scenarios.map(\.name))
    func clean(name: String) {
        let scenario = Self.scenarios.first { $0.name == name }!
        let result = evaluate(scenario, DetectionSimulator(seed: 1))
        print("\(name) clean: \(result.tracker)")
        #expect(result.tracker.idSwitches == 0)
        #expect(result.tracker.idf1 >= 0.95)
        #expect(TrackingEvaluation.reusedIDsAfterReturn(result.tracker, truth: result.truth).isEmpty)
    }

    @Test(
        "Realistic detections: crossing and short occlusion keep every ID", arguments: ["crossing", "occlusion"], 1...5)
    func realistic(name: String, seed: Int) {
        let scenario = Self.scenarios.first { $0.name == name }!
        let result = evaluate(scenario, .realistic(seed: UInt64(seed)))
        print("\(name) realistic \(seed): \(result.tracker)")
        #expect(result.tracker.idSwitches == 0)
        #expect(result.tracker.idf1 >= 0.9)
    }

    @Test("Realistic detections: objects coming back into view get new IDs", arguments: 1...5)
    func exitAndReturn(seed: Int) {
        let result = evaluate(.exitAndReturn, .realistic(seed: UInt64(seed)))
        // Two of the three objects leave and come back: five truth identities.
        #expect(result.truth.idsByObject.map(\.count) == [2, 1, 2])
        #expect(TrackingEvaluation.reusedIDsAfterReturn(result.tracker, truth: result.truth).isEmpty)
        #expect(result.tracker.idSwitches == 0)
        #expect(result.tracker.idf1 >= 0.9)
    }

    @Test("Realistic detections on ten objects: at most one switch per clip, IDF1 >= 0.92", arguments: 1...5)
    func many(seed: Int) {
        let result = evaluate(.many, .realistic(seed: UInt64(seed)))
        print("many realistic \(seed): \(result.tracker)")
        // Measured: 0 or 1 switch per seed (objects bouncing off the edges while missed), IDF1 0.92 to 0.98: one
        // switch in the middle of the clip costs about 0.05 of IDF1 (seed 2 since the velocity noise went from
        // 1/160 to 1/250, chosen on the tracking benchmark's 92 noise draws: docs/tracking-quality.md).
        #expect(result.tracker.idSwitches <= 1)
        #expect(result.tracker.idf1 >= 0.92)
    }

    @Test(
        "The motion model and the rescue stage beat IoU-only matching where it fails",
        arguments: ["crossing", "occlusion"])
    func beatsBaseline(name: String) {
        let scenario = Self.scenarios.first { $0.name == name }!
        let result = evaluate(scenario, DetectionSimulator(seed: 1))
        print("\(name): tracker \(result.tracker)\n  IoU-only baseline \(result.baseline)")
        // IoU-only matching loses the hidden object's identity (its last box no longer overlaps it when it
        // reappears); the tracker's prediction follows it through.
        #expect(result.baseline.idSwitches >= 1)
        #expect(result.tracker.idSwitches == 0)
        #expect(result.tracker.idf1 > result.baseline.idf1 + 0.1)
    }
}
