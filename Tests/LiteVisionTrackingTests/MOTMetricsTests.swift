import LiteVisionGeometry
import LiteVisionTrackingTestSupport
import Testing

/// The metrics on tiny cases computed by hand.
@Suite("MOT metrics")
struct MOTMetricsTests {
    let a = BoundingBox(x: 0, y: 0, width: 10, height: 10)
    let b = BoundingBox(x: 100, y: 0, width: 10, height: 10)
    let far = BoundingBox(x: 300, y: 300, width: 10, height: 10)

    private func boxes(_ items: (Int, BoundingBox)...) -> [LabeledBox] { items.map { LabeledBox(id: $0.0, box: $0.1) } }

    @Test("Perfect tracking")
    func perfect() {
        let truth = Array(repeating: boxes((0, a), (1, b)), count: 3)
        let predictions = Array(repeating: boxes((10, a), (11, b)), count: 3)
        let m = MOTMetrics.evaluate(truth: truth, predictions: predictions)
        #expect(m.mota == 1 && m.idf1 == 1 && m.idSwitches == 0 && m.matches == 6 && m.motp == 1)
        #expect(m.mostlyTracked == 2 && m.mostlyLost == 0 && m.truthTrajectories == 2)
        #expect(m.assignments[1] == [0: 10, 1: 11])
    }

    @Test("One ID switch halfway: MOTA 0.75, IDF1 0.5")
    func idSwitch() {
        let truth = Array(repeating: boxes((0, a)), count: 4)
        let predictions = [boxes((5, a)), boxes((5, a)), boxes((6, a)), boxes((6, a))]
        let m = MOTMetrics.evaluate(truth: truth, predictions: predictions)
        #expect(m.idSwitches == 1 && m.matches == 4 && m.misses == 0 && m.falsePositives == 0)
        #expect(m.mota == 0.75)
        // The best global pairing gives truth 0 one of the two IDs: 2 of 4 boxes right, 2·2 / (4 + 4).
        #expect(m.idTruePositives == 2 && m.idFalsePositives == 2 && m.idFalseNegatives == 2)
        #expect(m.idf1 == 0.5 && m.idPrecision == 0.5 && m.idRecall == 0.5)
        #expect(m.predictedIDsByTruth == [0: [5, 6]])
    }

    @Test("A miss and a false positive: MOTA 0, IDF1 0.5")
    func missAndFalsePositive() {
        let m = MOTMetrics.evaluate(
            truth: [boxes((0, a)), boxes((0, a))],
            predictions: [boxes((1, a)), boxes((1, far))])
        #expect(m.matches == 1 && m.misses == 1 && m.falsePositives == 1 && m.idSwitches == 0)
        #expect(m.mota == 0)
        #expect(m.idf1 == 0.5)
    }

    @Test("Matching needs IoU >= 0.5")
    func threshold() {
        let half = BoundingBox(x: 0, y: 0, width: 10, height: 5)  // IoU 0.5 with a
        let less = BoundingBox(x: 0, y: 0, width: 10, height: 4.9)  // IoU 0.49
        #expect(MOTMetrics.evaluate(truth: [boxes((0, a))], predictions: [boxes((1, half))]).matches == 1)
        #expect(MOTMetrics.evaluate(truth: [boxes((0, a))], predictions: [boxes((1, less))]).matches == 0)
    }

    @Test("A truth object keeps its last prediction while it still overlaps enough")
    func continuity() {
        let shifted = BoundingBox(x: 2, y: 0, width: 10, height: 10)  // IoU 0.667 with a
        // Frame 1: prediction 10 overlaps truth 0 (0.667) and truth 1 exactly; truth 0 keeps it, truth 1 is missed.
        let m = MOTMetrics.evaluate(
            truth: [boxes((0, a), (1, b)), boxes((0, a), (1, shifted))],
            predictions: [boxes((10, a), (11, b)), boxes((10, shifted))])
        #expect(m.idSwitches == 0 && m.matches == 3 && m.misses == 1 && m.falsePositives == 0)
        #expect(m.assignments[1] == [0: 10])
    }

    @Test("Swapped IDs: two switches, two transfers, IDF1 from the global pairing")
    func swap() {
        // Frames 0–2 right, frame 3 swapped.
        let truth = Array(repeating: boxes((0, a), (1, b)), count: 4)
        let predictions = Array(repeating: boxes((5, a), (6, b)), count: 3) + [boxes((6, a), (5, b))]
        let m = MOTMetrics.evaluate(truth: truth, predictions: predictions)
        #expect(m.idSwitches == 2 && m.idTransfers == 2)
        #expect(m.mota == 1 - 2.0 / 8)
        // Pairs (0,5) and (1,6) overlap in 3 frames each: IDTP 6 of 8 + 8 boxes.
        #expect(m.idTruePositives == 6 && m.idf1 == 0.75)
    }

    @Test("Fragmentation, mostly tracked and mostly lost")
    func fragmentation() {
        let truth = Array(repeating: boxes((0, a), (1, b)), count: 5)
        let predictions = [boxes((5, a)), boxes((5, a)), [], boxes((5, a)), boxes((5, a))]
        let m = MOTMetrics.evaluate(truth: truth, predictions: predictions)
        #expect(m.fragmentations == 1)
        #expect(m.mostlyTracked == 1 && m.mostlyLost == 1)  // truth 0: 4 of 5 frames; truth 1: none
        #expect(m.misses == 6)
    }

    @Test("Predictions on ignored truth are neither false positives nor misses")
    func ignored() {
        let partOfB = BoundingBox(x: 100, y: 0, width: 4, height: 10)  // the visible part of a hidden object
        let m = MOTMetrics.evaluate(truth: [boxes((0, a))], predictions: [boxes((1, a), (2, b))], ignored: [[b]])
        #expect(m.falsePositives == 0 && m.predictionCount == 1 && m.mota == 1)
        let partial = MOTMetrics.evaluate(
            truth: [boxes((0, a))], predictions: [boxes((1, a), (2, partOfB))],
            ignored: [[b]])
        #expect(partial.falsePositives == 0)
        // Not on an ignored box: a false positive.
        let elsewhere = MOTMetrics.evaluate(
            truth: [boxes((0, a))], predictions: [boxes((1, a), (2, far))],
            ignored: [[b]])
        #expect(elsewhere.falsePositives == 1 && elsewhere.mota == 0)
    }

    @Test("Nothing to find and nothing found")
    func empty() {
        let m = MOTMetrics.evaluate(truth: [[], []], predictions: [[], []])
        #expect(m.mota == 1 && m.idf1 == 1 && m.frames == 2)
    }
}
