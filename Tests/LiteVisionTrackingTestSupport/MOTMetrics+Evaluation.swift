import LiteVisionGeometry
import LiteVisionImaging
import LiteVisionTracking

extension MOTMetrics {
    /// Scores predicted tracks against ground truth.
    ///
    /// **Ignored truth.** Boxes in `ignored` (for instance objects mostly hidden, that no detector can be
    /// expected to find) are neither misses when unmatched nor false positives when found. As MOTChallenge does
    /// with its distractors, predictions are first paired with truth and ignored boxes together (a prediction
    /// fits an ignored box when their IoU, or the share of the prediction inside it — a detector boxes only
    /// the visible part of a hidden object — reaches the threshold); predictions paired with an ignored box,
    /// or left unpaired but lying mostly on one, are removed before scoring.
    ///
    /// **CLEAR MOT**, frame by frame: a truth object keeps the prediction it was last matched to if that ID is
    /// present and still overlaps it enough; the others are paired by a maximum-cardinality assignment that
    /// then maximizes the total IoU (MOTChallenge's Hungarian step on `1 − IoU`). Unmatched truth boxes are
    /// misses, unmatched predictions false positives; a truth object matched to another ID than its last one
    /// is an ID switch. MOTA = `1 − (FN + FP + IDSW) / GT`.
    ///
    /// **Identity scores** (IDF1): every truth ID is paired with at most one predicted ID for the whole
    /// sequence. The pairing is the bipartite matching maximizing the number of frames where the two IDs'
    /// boxes overlap (IoU at least the threshold) — the IDTP; every other truth box is an IDFN and every
    /// other prediction an IDFP. IDF1 = `2 IDTP / (2 IDTP + IDFP + IDFN)`: the fraction of boxes that carry
    /// the right identity, insensitive to when an ID error happens.
    /// - Parameters:
    ///   - truth: per frame, the truth objects (IDs unique within a frame).
    ///   - predictions: per frame, the tracker's output (same number of frames; IDs unique within a frame).
    ///   - ignored: per frame, regions of ignored truth (may be shorter than `truth`, or empty).
    ///   - iouThreshold: the least IoU for a prediction to correspond to a truth box. Default 0.5.
    package static func evaluate(
        truth: [[LabeledBox]], predictions: [[LabeledBox]],
        ignored: [[BoundingBox]] = [], iouThreshold: Double = 0.5
    ) -> MOTMetrics {
        precondition(truth.count == predictions.count, "MOTMetrics: truth and predictions differ in length")
        for frame in truth + predictions {
            precondition(Set(frame.map(\.id)).count == frame.count, "MOTMetrics: an ID appears twice in a frame")
        }
        let kept = truth.indices.map { f in
            removingIgnored(
                predictions[f], truth: truth[f], ignored: f < ignored.count ? ignored[f] : [],
                threshold: iouThreshold)
        }
        var metrics = clear(truth: truth, predictions: kept, threshold: iouThreshold)
        metrics.addIdentityScores(truth: truth, predictions: kept, threshold: iouThreshold)
        return metrics
    }

    /// Drops the predictions that belong to ignored truth rather than to real truth.
    private static func removingIgnored(
        _ predictions: [LabeledBox], truth: [LabeledBox], ignored: [BoundingBox],
        threshold: Double
    ) -> [LabeledBox] {
        guard !ignored.isEmpty, !predictions.isEmpty else { return predictions }
        func fit(_ prediction: BoundingBox, ignoredBox: BoundingBox) -> Double {
            let inside = prediction.area > 0 ? ignoredBox.intersection(prediction).area / prediction.area : 0
            return max(prediction.iou(ignoredBox), inside)
        }
        // Rows: truth boxes then ignored boxes; columns: predictions.
        var edges: [LinearAssignment.Edge] = []
        let pairValue = Double(min(truth.count + ignored.count, predictions.count) + 1)
        for (p, prediction) in predictions.enumerated() {
            for (t, object) in truth.enumerated() {
                let iou = object.box.iou(prediction.box)
                if iou >= threshold { edges.append(.init(row: t, column: p, weight: pairValue + iou)) }
            }
            for (i, box) in ignored.enumerated() {
                let value = fit(prediction.box, ignoredBox: box)
                if value >= threshold {
                    edges.append(.init(row: truth.count + i, column: p, weight: pairValue + value))
                }
            }
        }
        let pairs = LinearAssignment.maximumWeightMatching(
            rowCount: truth.count + ignored.count,
            columnCount: predictions.count, edges: edges)
        var pairedWith = [Int?](repeating: nil, count: predictions.count)
        for pair in pairs { pairedWith[pair.column] = pair.row }
        return predictions.indices.compactMap { p in
            if let row = pairedWith[p] { return row < truth.count ? predictions[p] : nil }
            let box = predictions[p].box
            let inside = ignored.contains { $0.intersection(box).area >= 0.5 * box.area && box.area > 0 }
            return inside ? nil : predictions[p]
        }
    }

    /// The pairing of `rows` with `columns` with the most pairs at or above the IoU threshold, and among those
    /// the largest total IoU.
    static func bestMatching(
        _ rows: [LabeledBox], _ columns: [LabeledBox],
        threshold: Double
    ) -> [LinearAssignment.Match] {
        var edges: [LinearAssignment.Edge] = []
        // A pair is worth more than any possible IoU total, so the count of pairs comes first.
        let pairValue = Double(min(rows.count, columns.count) + 1)
        for (r, a) in rows.enumerated() {
            for (c, b) in columns.enumerated() {
                let iou = a.box.iou(b.box)
                if iou >= threshold { edges.append(.init(row: r, column: c, weight: pairValue + iou)) }
            }
        }
        return LinearAssignment.maximumWeightMatching(rowCount: rows.count, columnCount: columns.count, edges: edges)
    }

    /// The CLEAR MOT counts.
    private static func clear(truth: [[LabeledBox]], predictions: [[LabeledBox]], threshold: Double) -> MOTMetrics {
        struct TrajectoryStats {
            var present = 0
            var matched = 0
            var everMatched = false
            var matchedInLastPresentFrame = false
        }
        var lastMatch: [Int: Int] = [:]  // truth ID → predicted ID
        var lastOwner: [Int: Int] = [:]  // predicted ID → truth ID
        var stats: [Int: TrajectoryStats] = [:]
        var assignments: [[Int: Int]] = []
        var matches = 0, misses = 0, falsePositives = 0, switches = 0, transfers = 0, fragmentations = 0
        var iouSum = 0.0

        for f in truth.indices {
            let objects = truth[f], outputs = predictions[f]
            var frameMatch: [Int: Int] = [:]
            var iouByTruth: [Int: Double] = [:]
            var used = Set<Int>()  // indices into outputs
            let outputIndex = Dictionary(uniqueKeysWithValues: outputs.enumerated().map { ($1.id, $0) })
            // Keep last correspondences that still hold.
            for object in objects {
                guard let id = lastMatch[object.id], let p = outputIndex[id], !used.contains(p) else { continue }
                let iou = object.box.iou(outputs[p].box)
                if iou >= threshold {
                    frameMatch[object.id] = id
                    iouByTruth[object.id] = iou
                    used.insert(p)
                }
            }
            // Pair the rest.
            let freeObjects = objects.filter { frameMatch[$0.id] == nil }
            let freeOutputs = outputs.indices.filter { !used.contains($0) }.map { outputs[$0] }
            for pair in bestMatching(freeObjects, freeOutputs, threshold: threshold) {
                let object = freeObjects[pair.row], output = freeOutputs[pair.column]
                frameMatch[object.id] = output.id
                iouByTruth[object.id] = object.box.iou(output.box)
            }
            for (object, id) in frameMatch {
                matches += 1
                iouSum += iouByTruth[object] ?? 0
                if let last = lastMatch[object], last != id { switches += 1 }
                if let owner = lastOwner[id], owner != object { transfers += 1 }
                lastMatch[object] = id
                lastOwner[id] = object
            }
            misses += objects.count - frameMatch.count
            falsePositives += outputs.count - frameMatch.count
            for object in objects {
                var s = stats[object.id] ?? TrajectoryStats()
                let isMatched = frameMatch[object.id] != nil
                s.present += 1
                if isMatched {
                    s.matched += 1
                    if s.everMatched && !s.matchedInLastPresentFrame { fragmentations += 1 }
                    s.everMatched = true
                }
                s.matchedInLastPresentFrame = isMatched
                stats[object.id] = s
            }
            assignments.append(frameMatch)
        }
        let truthCount = truth.reduce(0) { $0 + $1.count }
        let predictionCount = predictions.reduce(0) { $0 + $1.count }
        let errors = Double(misses + falsePositives + switches)
        let mota = truthCount > 0 ? 1 - errors / Double(truthCount) : (errors == 0 ? 1 : 0)
        return MOTMetrics(
            frames: truth.count, truthCount: truthCount, predictionCount: predictionCount, matches: matches,
            misses: misses, falsePositives: falsePositives, idSwitches: switches, idTransfers: transfers,
            fragmentations: fragmentations, mota: mota, motp: matches > 0 ? iouSum / Double(matches) : 1,
            idTruePositives: 0, idFalsePositives: 0, idFalseNegatives: 0, idf1: 0, idPrecision: 0, idRecall: 0,
            truthTrajectories: stats.count,
            mostlyTracked: stats.values.filter { Double($0.matched) >= 0.8 * Double($0.present) }.count,
            mostlyLost: stats.values.filter { Double($0.matched) < 0.2 * Double($0.present) }.count,
            assignments: assignments)
    }

    /// IDTP, IDFP, IDFN and IDF1 from the global truth-ID to predicted-ID matching.
    private mutating func addIdentityScores(truth: [[LabeledBox]], predictions: [[LabeledBox]], threshold: Double) {
        var truthIDs: [Int: Int] = [:], predictedIDs: [Int: Int] = [:]  // ID → dense index
        for frame in truth {
            for object in frame where truthIDs[object.id] == nil { truthIDs[object.id] = truthIDs.count }
        }
        for frame in predictions {
            for object in frame where predictedIDs[object.id] == nil { predictedIDs[object.id] = predictedIDs.count }
        }
        // Frames in which each pair of IDs overlaps.
        var overlaps: [LinearAssignment.Match: Int] = [:]
        for f in truth.indices {
            for object in truth[f] {
                for output in predictions[f] where object.box.iou(output.box) >= threshold {
                    overlaps[.init(row: truthIDs[object.id]!, column: predictedIDs[output.id]!), default: 0] += 1
                }
            }
        }
        let edges = overlaps.map {
            LinearAssignment.Edge(row: $0.key.row, column: $0.key.column, weight: Double($0.value))
        }
        let pairs = LinearAssignment.maximumWeightMatching(
            rowCount: truthIDs.count, columnCount: predictedIDs.count,
            edges: edges)
        let truePositives = pairs.reduce(0) { $0 + overlaps[$1]! }
        idTruePositives = truePositives
        idFalseNegatives = truthCount - truePositives
        idFalsePositives = predictionCount - truePositives
        let denominator = Double(truthCount + predictionCount)
        idf1 = denominator > 0 ? 2 * Double(truePositives) / denominator : 1
        idPrecision = predictionCount > 0 ? Double(truePositives) / Double(predictionCount) : 1
        idRecall = truthCount > 0 ? Double(truePositives) / Double(truthCount) : 1
    }
}
