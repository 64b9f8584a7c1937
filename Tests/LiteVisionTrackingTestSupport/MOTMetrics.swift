/// Multi-object tracking scores of a tracker's output against ground truth, as defined by the MOTChallenge
/// (CLEAR MOT: Bernardin & Stiefelhagen 2008; identity scores: Ristani et al. 2016). Compute them with
/// ``evaluate(truth:predictions:ignored:iouThreshold:)``.
///
/// A predicted box and a truth box can correspond only when their IoU is at least the threshold (0.5).
package struct MOTMetrics: Sendable, Equatable, CustomStringConvertible {
    /// Number of frames evaluated.
    package var frames: Int
    /// Truth boxes, over all frames (GT).
    package var truthCount: Int
    /// Predicted boxes, over all frames, without those that only cover ignored truth.
    package var predictionCount: Int
    /// Truth boxes matched to a prediction (TP).
    package var matches: Int
    /// Truth boxes left unmatched (FN).
    package var misses: Int
    /// Predictions left unmatched (FP).
    package var falsePositives: Int
    /// Times a truth object was matched to a different predicted ID than the last time it was matched (IDSW).
    package var idSwitches: Int
    /// Times a predicted ID was matched to a different truth object than the last time it was matched
    /// (an ID taken over by another object: for instance an object re-entering the view that got its old ID).
    package var idTransfers: Int
    /// Times the tracking of a truth object resumed after an interruption (Frag).
    package var fragmentations: Int
    /// Multiple Object Tracking Accuracy: `1 − (FN + FP + IDSW) / GT` (1 when there is no truth and no
    /// error). Can be negative.
    package var mota: Double
    /// Multiple Object Tracking Precision, here as the mean IoU of the matched pairs (1 with no match).
    package var motp: Double
    /// Identity true positives: truth boxes covered by the prediction ID globally assigned to their truth ID.
    package var idTruePositives: Int
    /// Identity false positives: predictions not counted in ``idTruePositives``.
    package var idFalsePositives: Int
    /// Identity false negatives: truth boxes not counted in ``idTruePositives``.
    package var idFalseNegatives: Int
    /// Identity F1 score: `2 IDTP / (2 IDTP + IDFP + IDFN)` (1 when there is nothing to find and nothing found).
    package var idf1: Double
    /// Identity precision: `IDTP / (IDTP + IDFP)`.
    package var idPrecision: Double
    /// Identity recall: `IDTP / (IDTP + IDFN)`.
    package var idRecall: Double
    /// Number of truth identities (trajectories).
    package var truthTrajectories: Int
    /// Truth trajectories matched in at least 80 % of their frames (MT).
    package var mostlyTracked: Int
    /// Truth trajectories matched in less than 20 % of their frames (ML).
    package var mostlyLost: Int
    /// For each frame, the CLEAR MOT correspondences: truth ID → predicted ID.
    package var assignments: [[Int: Int]]

    /// A one-line summary.
    package var description: String {
        func f(_ value: Double) -> String {
            let scaled = (value * 1000).rounded() / 1000
            return "\(scaled)"
        }
        return "MOTA \(f(mota)) IDF1 \(f(idf1)) IDSW \(idSwitches) transfers \(idTransfers) FP \(falsePositives) "
            + "FN \(misses) TP \(matches)/\(truthCount) Frag \(fragmentations) MT \(mostlyTracked)/\(truthTrajectories) "
            + "ML \(mostlyLost) MOTP \(f(motp))"
    }

    /// The predicted IDs matched to each truth ID at least once.
    package var predictedIDsByTruth: [Int: Set<Int>] {
        var result: [Int: Set<Int>] = [:]
        for frame in assignments {
            for (truth, predicted) in frame { result[truth, default: []].insert(predicted) }
        }
        return result
    }
}
