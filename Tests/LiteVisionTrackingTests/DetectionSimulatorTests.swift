import LiteVisionTracking
import LiteVisionTrackingTestSupport
import Testing

@Suite("Detection simulator")
struct DetectionSimulatorTests {
    @Test("Clean detections: one per visible object, near its box, deterministic")
    func clean() {
        let truth = ScenarioTruth(.exitAndReturn)
        let detections = DetectionSimulator(seed: 2).detections(for: truth)
        #expect(detections.count == truth.frameCount)
        #expect(DetectionSimulator(seed: 2).detections(for: truth) == detections)
        for (f, frame) in detections.enumerated() {
            let visible = truth.frames[f].filter { $0.visibility >= 0.3 }
            #expect(frame.count == visible.count)
            for d in frame {
                let object = truth.frames[f].first { $0.id == d.truthID }!
                #expect(d.detection.box.iou(object.visibleBox!) > 0.7)
            }
        }
    }

    @Test("Partly hidden objects get weak scores and boxes of their visible part")
    func partial() {
        let truth = ScenarioTruth(.occlusion)
        let detections = DetectionSimulator(seed: 1).detections(for: truth)
        var weak = 0
        for (f, frame) in detections.enumerated() {
            for d in frame {
                let object = truth.frames[f].first { $0.id == d.truthID }!
                if object.unoccludedFraction < 0.6 {
                    weak += 1
                    #expect(d.detection.score < 0.5)
                    #expect(d.detection.box.width < 0.8 * object.box.width)
                }
            }
        }
        #expect(weak >= 4)
    }

    @Test("Scripted misses and weak scores")
    func events() {
        var simulator = DetectionSimulator(seed: 1)
        simulator.events = [
            DetectionEvent(objectIndex: 1, frames: 10...12, kind: .missing),
            DetectionEvent(objectIndex: 1, frames: 20...22, kind: .score(0.2)),
        ]
        let truth = ScenarioTruth(.exitAndReturn)
        let detections = simulator.detections(for: truth)
        let roseID = truth.idsByObject[1][0]
        for f in 10...12 { #expect(!detections[f].contains { $0.truthID == roseID }) }
        for f in 20...22 { #expect(detections[f].first { $0.truthID == roseID }?.detection.score == 0.2) }
    }

    @Test("Random misses and false positives at the requested rates")
    func rates() {
        var simulator = DetectionSimulator(seed: 9)
        simulator.missRate = 0.2
        simulator.falsePositiveRate = 0.5
        let truth = ScenarioTruth(.many)
        let detections = simulator.detections(for: truth)
        let falsePositives = detections.joined().filter { $0.truthID == nil }.count
        let found = detections.joined().filter { $0.truthID != nil }.count
        let visible = truth.frames.joined().filter { $0.visibility >= 0.3 }.count
        // 90 frames × 0.5 = 45 expected; 20 % of the visible objects missed.
        #expect((25...65).contains(falsePositives))
        #expect(abs(Double(found) / Double(visible) - 0.8) < 0.05)
    }
}
