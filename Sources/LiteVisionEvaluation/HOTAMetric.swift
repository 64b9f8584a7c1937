/// HOTA (Luiten et al., 2020) as TrackEval's `HOTA` metric computes it: detection, association and localization
/// accuracy at the 19 IoU thresholds α = 0.05, 0.10, ..., 0.95, each frame's boxes matched by the best assignment
/// of global alignment × IoU. Sequences are combined by summing the counts and weighting the association and
/// localization scores by true positives; the reported numbers are means over α.
package struct HOTAMetric: Sendable, Equatable {
    /// The thresholds α (numpy's `arange(0.05, 0.99, 0.05)`, bit for bit).
    package static let alphas: [Double] = (0..<19).map { 0.05 + Double($0) * 0.05 }

    /// Per α: true positives, false negatives, false positives.
    package var truePositives: [Double]
    package var falseNegatives: [Double]
    package var falsePositives: [Double]
    /// Per α: association accuracy, recall and precision, and localization accuracy.
    package var associationAccuracy: [Double]
    package var associationRecall: [Double]
    package var associationPrecision: [Double]
    package var localizationAccuracy: [Double]

    private init(zeros count: Int) {
        truePositives = [Double](repeating: 0, count: count)
        falseNegatives = truePositives
        falsePositives = truePositives
        associationAccuracy = truePositives
        associationRecall = truePositives
        associationPrecision = truePositives
        localizationAccuracy = truePositives
    }

    /// Per α: detection accuracy TP / (TP + FN + FP).
    package var detectionAccuracy: [Double] {
        Self.alphas.indices.map {
            truePositives[$0] / max(1, truePositives[$0] + falseNegatives[$0] + falsePositives[$0])
        }
    }
    /// Per α: detection recall and precision.
    package var detectionRecall: [Double] {
        Self.alphas.indices.map { truePositives[$0] / max(1, truePositives[$0] + falseNegatives[$0]) }
    }
    package var detectionPrecision: [Double] {
        Self.alphas.indices.map { truePositives[$0] / max(1, truePositives[$0] + falsePositives[$0]) }
    }
    /// Per α: HOTA = √(DetA · AssA).
    package var hota: [Double] {
        zip(detectionAccuracy, associationAccuracy).map { ($0 * $1).squareRoot() }
    }

    /// The metric for one sequence.
    package init(_ sequence: TrackingSequence) {
        let alphaCount = Self.alphas.count
        self.init(zeros: alphaCount)
        let eps = Double.ulpOfOne
        if sequence.trackerCount == 0 {
            falseNegatives = [Double](repeating: Double(sequence.groundTruthCount), count: alphaCount)
            localizationAccuracy = [Double](repeating: 1, count: alphaCount)
            return
        }
        if sequence.groundTruthCount == 0 {
            falsePositives = [Double](repeating: Double(sequence.trackerCount), count: alphaCount)
            localizationAccuracy = [Double](repeating: 1, count: alphaCount)
            return
        }
        let T = sequence.trackerIDCount
        // Per (ground-truth id, tracker id) pair that ever overlaps, keyed `g * T + t`: TrackEval's dense matrices,
        // whose other entries stay 0.
        var potentialMatches: [Int: Double] = [:]
        var gtIDCount = [Double](repeating: 0, count: sequence.groundTruthIDCount)
        var trackerIDCount = [Double](repeating: 0, count: T)
        for frame in sequence.frames {
            let (g, t) = (frame.groundTruthIDs.count, frame.trackerIDs.count)
            // numpy's `similarity.sum(1)` and `.sum(0)`, bit for bit (see `NumPySum`): each row is a contiguous run,
            // summed pairwise; so is the one column of a frame with a single tracker box, while several columns are
            // summed row after row.
            let rowSums = (0..<g).map { NumPySum.of(frame.similarity[($0 * t)..<($0 * t + t)]) }
            var columnSums = [Double](repeating: 0, count: t)
            if t == 1 {
                columnSums[0] = NumPySum.of(frame.similarity[0..<g])
            } else {
                for i in 0..<g {
                    for j in 0..<t { columnSums[j] += frame.similarity[i * t + j] }
                }
            }
            for i in 0..<g {
                for j in 0..<t {
                    let s = frame.similarity[i * t + j]
                    let denominator = columnSums[j] + rowSums[i] - s
                    if denominator > 0 + eps && s != 0 {
                        potentialMatches[frame.groundTruthIDs[i] * T + frame.trackerIDs[j], default: 0] +=
                            s / denominator
                    }
                }
            }
            for id in frame.groundTruthIDs { gtIDCount[id] += 1 }
            for id in frame.trackerIDs { trackerIDCount[id] += 1 }
        }
        var globalAlignment: [Int: Double] = [:]
        for (pair, p) in potentialMatches {
            globalAlignment[pair] = p / (gtIDCount[pair / T] + trackerIDCount[pair % T] - p)
        }
        // Per pair, per α: the frames in which the pair is matched.
        var matchCounts: [Int: [Double]] = [:]
        for frame in sequence.frames {
            let (g, t) = (frame.groundTruthIDs.count, frame.trackerIDs.count)
            if g == 0 {
                for a in 0..<alphaCount { falsePositives[a] += Double(t) }
                continue
            }
            if t == 0 {
                for a in 0..<alphaCount { falseNegatives[a] += Double(g) }
                continue
            }
            var cost = [Double](repeating: 0, count: g * t)
            for i in 0..<g {
                for j in 0..<t where frame.similarity[i * t + j] != 0 {
                    let alignment = globalAlignment[frame.groundTruthIDs[i] * T + frame.trackerIDs[j]] ?? 0
                    cost[i * t + j] = -(alignment * frame.similarity[i * t + j])
                }
            }
            let matches = LinearSumAssignment.minimumCost(cost, rows: g, columns: t)
            for (a, alpha) in Self.alphas.enumerated() {
                var count = 0
                var similaritySum = 0.0
                for match in matches where frame.similarity[match.row * t + match.column] >= alpha - eps {
                    count += 1
                    similaritySum += frame.similarity[match.row * t + match.column]
                    let pair = frame.groundTruthIDs[match.row] * T + frame.trackerIDs[match.column]
                    matchCounts[pair, default: [Double](repeating: 0, count: alphaCount)][a] += 1
                }
                truePositives[a] += Double(count)
                falseNegatives[a] += Double(g - count)
                falsePositives[a] += Double(t - count)
                if count > 0 { localizationAccuracy[a] += similaritySum }
            }
        }
        var accuracy = [Double](repeating: 0, count: alphaCount)
        var recall = accuracy
        var precision = accuracy
        for pair in matchCounts.keys.sorted() {
            let counts = matchCounts[pair]!
            let (gtCount, trackerCount) = (gtIDCount[pair / T], trackerIDCount[pair % T])
            for a in 0..<alphaCount where counts[a] != 0 {
                let m = counts[a]
                accuracy[a] += m * (m / max(1, gtCount + trackerCount - m))
                recall[a] += m * (m / max(1, gtCount))
                precision[a] += m * (m / max(1, trackerCount))
            }
        }
        for a in 0..<alphaCount {
            associationAccuracy[a] = accuracy[a] / max(1, truePositives[a])
            associationRecall[a] = recall[a] / max(1, truePositives[a])
            associationPrecision[a] = precision[a] / max(1, truePositives[a])
            localizationAccuracy[a] = max(1e-10, localizationAccuracy[a]) / max(1e-10, truePositives[a])
        }
    }

    /// Several sequences combined as TrackEval's `combine_sequences` combines them.
    package init(combining parts: [HOTAMetric]) {
        let alphaCount = Self.alphas.count
        self.init(zeros: alphaCount)
        for a in 0..<alphaCount {
            truePositives[a] = parts.reduce(0) { $0 + $1.truePositives[a] }
            falseNegatives[a] = parts.reduce(0) { $0 + $1.falseNegatives[a] }
            falsePositives[a] = parts.reduce(0) { $0 + $1.falsePositives[a] }
            let weight = max(1, truePositives[a])
            associationAccuracy[a] = parts.reduce(0) { $0 + $1.associationAccuracy[a] * $1.truePositives[a] } / weight
            associationRecall[a] = parts.reduce(0) { $0 + $1.associationRecall[a] * $1.truePositives[a] } / weight
            associationPrecision[a] = parts.reduce(0) { $0 + $1.associationPrecision[a] * $1.truePositives[a] } / weight
            let localization = parts.reduce(0) { $0 + $1.localizationAccuracy[a] * $1.truePositives[a] }
            localizationAccuracy[a] = max(1e-10, localization) / max(1e-10, truePositives[a])
        }
    }
}
