import LiteVision
import LiteVisionTestSupport
import LiteVisionTrackingTestSupport
import Testing

/// The real detector and tracker, end to end, on synthetic clips with a known truth: real object crops from the
/// shared photos moving over real (faded) backgrounds along known paths, with crossings, short occlusions and
/// objects leaving and coming back (see LiteVisionTrackingTestSupport).
///
/// Thresholds, and why (measured values in parentheses, detection threshold 0.3):
/// - ID switches: at most 1 per named clip and 2 per random clip (measured 0–2: seed 303 has 2). They are the
///   tracker's own errors, and the number the issue is about.
/// - No ID reused after an object left the image and came back (ML Kit's contract).
/// - ID recall (the share of truth boxes covered by the right track, IDF1's recall side) ≥ 0.75 on named
///   clips (0.87–0.96) and ≥ 0.4 on random ones (0.49–0.79): it falls with the detector's misses as well (the
///   localizer finds only 58% of the objects of seed 303).
/// - IDF1 ≥ 0.7 and MOTA ≥ 0.35 on named clips (IDF1 0.75–0.97, MOTA 0.42–0.94). Both also count as false
///   positives the class-agnostic localizer's detections of clutter in the backgrounds and of the occluder
///   patches, which the truth (only the pasted objects) does not know about, so they are kept loose; on random
///   clips, with more clutter, only the ID measures are asserted.
@Suite("Tracking synthetic clips end to end")
struct SyntheticTrackingTests {
    static let detector: @Sendable () throws -> ObjectDetector = {
        let options = ObjectDetectorOptions()
        options.shouldEnableMultipleObjects = true
        options.maximumObjectCount = 20
        options.detectionThreshold = 0.3
        options.modelDirectory = TestData.path("models")
        return try ObjectDetector(options: options)
    }

    /// Runs a fresh stream-mode detector over every frame of `scenario`; MOT metrics against its truth.
    static func evaluate(_ scenario: Scenario) throws -> (metrics: MOTMetrics, reused: [Int]) {
        let sequence = try SyntheticSequence(scenario)
        let detector = try detector()
        var predictions: [[LabeledBox]] = []
        for index in 0..<sequence.frameCount {
            let objects = try detector.results(in: VisionImage(buffer: sequence.frame(index)))
            predictions.append(objects.map { LabeledBox(id: $0.trackingID ?? -1, box: $0.frame) })
        }
        let metrics = TrackingEvaluation.metrics(predictions, truth: sequence.truth)
        return (metrics, TrackingEvaluation.reusedIDsAfterReturn(metrics, truth: sequence.truth))
    }

    @Test("Named scenarios", arguments: ["crossing", "occlusion", "exitAndReturn"])
    func named(_ name: String) throws {
        let scenario: Scenario =
            switch name {
            case "crossing": .crossing
            case "occlusion": .occlusion
            default: .exitAndReturn
            }
        let (metrics, reused) = try Self.evaluate(scenario)
        print("SYNTHETIC \(name): \(metrics) IDR \(metrics.idRecall)")
        #expect(reused.isEmpty, "an object that left and came back got an old ID: \(reused)")
        #expect(metrics.idSwitches <= 1, "\(metrics)")
        #expect(metrics.idRecall >= 0.75, "\(metrics)")
        #expect(metrics.idf1 >= 0.7, "\(metrics)")
        #expect(metrics.mota >= 0.35, "\(metrics)")
    }

    @Test("Clips the tests have not seen (random seeds)", arguments: [101, 202, 303])
    func unseen(seed: Int) throws {
        let (metrics, reused) = try Self.evaluate(.random(seed: UInt64(seed)))
        print("SYNTHETIC seed \(seed): \(metrics) IDR \(metrics.idRecall)")
        #expect(reused.isEmpty)
        #expect(metrics.idSwitches <= 2, "\(metrics)")
        #expect(metrics.idRecall >= 0.4, "\(metrics)")
    }
}
