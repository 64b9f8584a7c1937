import LiteVisionImaging
import LiteVisionTracking

/// Runs trackers over simulated detections and scores them against a scenario's truth.
package enum TrackingEvaluation {
    /// The tracker's reported tracks of every frame, as (tracking ID, box).
    package static func run(
        _ tracker: inout ObjectTracker, detections: [[TrackerDetection]],
        imageWidth: Int, imageHeight: Int
    ) -> [[LabeledBox]] {
        detections.map { frame in
            tracker.update(frame, imageWidth: imageWidth, imageHeight: imageHeight).map {
                LabeledBox(id: $0.id, box: $0.box)
            }
        }
    }

    /// A new tracker with `options` run over the detections of a scenario.
    package static func run(
        options: TrackingOptions = .init(), detections: [[TrackerDetection]],
        scenario: Scenario
    ) -> [[LabeledBox]] {
        var tracker = ObjectTracker(options: options)
        return run(&tracker, detections: detections, imageWidth: scenario.width, imageHeight: scenario.height)
    }

    /// The naive baseline run over the detections.
    package static func runBaseline(detections: [[TrackerDetection]], trackBuffer: Int = 30) -> [[LabeledBox]] {
        var tracker = NaiveIoUTracker(trackBuffer: trackBuffer)
        return detections.map { tracker.update($0) }
    }

    /// MOT metrics of tracker output against the truth, objects less than `minimumVisibility` visible being
    /// ignored (see ``ScenarioTruth/labeledBoxes(minimumVisibility:)``).
    package static func metrics(
        _ predictions: [[LabeledBox]], truth: ScenarioTruth,
        minimumVisibility: Double = 0.5
    ) -> MOTMetrics {
        let (objects, ignored) = truth.labeledBoxes(minimumVisibility: minimumVisibility)
        return MOTMetrics.evaluate(truth: objects, predictions: predictions, ignored: ignored)
    }

    /// For each truth ID that follows an exit of the same physical object, whether the tracker gave it only
    /// IDs it had not given to that object before (ML Kit's contract: an object coming back gets a new ID).
    /// Returns the truth IDs for which an old ID was reused.
    package static func reusedIDsAfterReturn(_ metrics: MOTMetrics, truth: ScenarioTruth) -> [Int] {
        let byTruth = metrics.predictedIDsByTruth
        var reused: [Int] = []
        for ids in truth.idsByObject where ids.count > 1 {
            var before = Set<Int>()
            for id in ids {
                let given = byTruth[id] ?? []
                if !given.isDisjoint(with: before) { reused.append(id) }
                before.formUnion(given)
            }
        }
        return reused
    }
}
