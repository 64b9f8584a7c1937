import LiteVisionTracking

/// The identity metrics (Ristani et al., 2016) as TrackEval's `Identity` metric computes them: each ground-truth
/// object is paired with at most one track, for the whole sequence, so that the boxes they share (IoU ≥ 0.5) are
/// as many as possible; IDTP counts those boxes. Sequences combine by summing the counts.
///
/// TrackEval solves an assignment over a square matrix with dummy rows and columns; its optimum is the largest
/// total of shared boxes over one-to-one pairings, found here by an exact maximum-weight matching on the pairs that
/// share any box (the counts, and so every number, are the same).
package struct IdentityMetric: Sendable, Equatable {
    /// The IoU a box pair needs to count as shared.
    package static let threshold = 0.5

    /// Ground-truth boxes on their paired track (identity true positives).
    package var truePositives = 0
    /// Ground-truth boxes not on their paired track.
    package var falseNegatives = 0
    /// Tracker boxes not on their paired object.
    package var falsePositives = 0

    /// IDF1 = IDTP / (IDTP + (IDFN + IDFP) / 2).
    package var f1: Double {
        Double(truePositives)
            / max(1, Double(truePositives) + 0.5 * Double(falsePositives) + 0.5 * Double(falseNegatives))
    }
    /// IDP = IDTP / (IDTP + IDFP).
    package var precision: Double { Double(truePositives) / max(1, Double(truePositives + falsePositives)) }
    /// IDR = IDTP / (IDTP + IDFN).
    package var recall: Double { Double(truePositives) / max(1, Double(truePositives + falseNegatives)) }

    /// The metrics of one sequence.
    package init(_ sequence: TrackingSequence) {
        if sequence.trackerCount == 0 {
            falseNegatives = sequence.groundTruthCount
            return
        }
        if sequence.groundTruthCount == 0 {
            falsePositives = sequence.trackerCount
            return
        }
        var shared: [Int: Int] = [:]
        let T = sequence.trackerIDCount
        for frame in sequence.frames {
            let t = frame.trackerIDs.count
            for i in frame.groundTruthIDs.indices {
                for j in 0..<t where frame.similarity[i * t + j] >= Self.threshold {
                    shared[frame.groundTruthIDs[i] * T + frame.trackerIDs[j], default: 0] += 1
                }
            }
        }
        let edges = shared.keys.sorted().map { key in
            LinearAssignment.Edge(row: key / T, column: key % T, weight: Double(shared[key]!))
        }
        let matches = LinearAssignment.maximumWeightMatching(
            rowCount: sequence.groundTruthIDCount, columnCount: T, edges: edges)
        truePositives = matches.reduce(0) { $0 + shared[$1.row * T + $1.column]! }
        falseNegatives = sequence.groundTruthCount - truePositives
        falsePositives = sequence.trackerCount - truePositives
    }

    /// Several sequences combined: the counts added up.
    package init(combining parts: [IdentityMetric]) {
        for part in parts {
            truePositives += part.truePositives
            falseNegatives += part.falseNegatives
            falsePositives += part.falsePositives
        }
    }
}
