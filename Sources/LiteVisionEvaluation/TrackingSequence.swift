import LiteVisionGeometry
/// One sequence made ready for the tracking metrics, as TrackEval's `MotChallenge2DBox` prepares it: per frame,
/// the ground-truth and tracker ids (renumbered from 0 in id order) and their box IoUs.
///
/// Every ground-truth row is evaluated except those whose "consider" flag (seventh column) cuts to 0 as a whole
/// number, whatever their class: TrackEval with `DO_PREPROC: False`. With `mot17`, MOTChallenge's own rules are added
/// (TrackEval's default for MOT17): only pedestrians (class 1) are evaluated, and tracker boxes matched (IoU ≥ 0.5,
/// best assignment) to a distractor (classes 2, 7, 8, 12: person on vehicle, static person, distractor, reflection)
/// are removed.
package struct TrackingSequence: Sendable {
    /// One frame's boxes.
    package struct Frame: Sendable {
        /// The ground-truth ids, renumbered, in file order.
        package var groundTruthIDs: [Int]
        /// The tracker ids, renumbered, in file order.
        package var trackerIDs: [Int]
        /// IoU of ground truth `g` with tracker box `t` at `g * trackerIDs.count + t`.
        package var similarity: [Double]
    }

    /// The sequence's name (for tables and errors).
    package var name: String
    /// The frames either file has boxes in, in order (frames without boxes change no metric).
    package var frames: [Frame]
    /// Distinct ground-truth ids.
    package var groundTruthIDCount: Int
    /// Distinct tracker ids.
    package var trackerIDCount: Int
    /// Ground-truth boxes evaluated.
    package var groundTruthCount: Int
    /// Tracker boxes evaluated.
    package var trackerCount: Int
    /// Ground-truth rows left out (consider flag cut to 0, or not pedestrians with `mot17`).
    package var ignoredGroundTruthCount: Int
    /// Tracker rows removed by the `mot17` distractor rule.
    package var removedTrackerCount: Int

    /// The most boxes one file may have in one frame (each frame's boxes are matched by an O(n³) assignment).
    package static let maximumBoxesPerFrame = 1000

    /// Distractor classes of MOT17 (TrackEval's `distractor_class_names` for MOT17).
    static let distractorClasses: Set<Int> = [2, 7, 8, 12]

    /// Joins a ground truth and a tracker's results for one sequence.
    package init(name: String, groundTruth: MOTFile, results: MOTFile, mot17: Bool) throws(EvaluationError) {
        self.name = name
        // Only the frames that have boxes: a frame with none changes no metric (TrackEval's loops skip them).
        let frameNumbers = Set(groundTruth.rows.map(\.frame)).union(results.rows.map(\.frame)).sorted()
        let position = Dictionary(uniqueKeysWithValues: frameNumbers.enumerated().map { ($1, $0) })
        var gtRows = [[MOTFile.Row]](repeating: [], count: frameNumbers.count)
        var trRows = [[MOTFile.Row]](repeating: [], count: frameNumbers.count)
        for row in groundTruth.rows { gtRows[position[row.frame]!].append(row) }
        for row in results.rows { trRows[position[row.frame]!].append(row) }
        if mot17 {
            for row in groundTruth.rows where row.objectClass == nil {
                throw EvaluationError(
                    file: groundTruth.path, line: row.line,
                    reason: "--mot17 needs the class in the eighth column of the ground truth")
            }
            for row in results.rows where Self.integer(row.objectClass ?? 1) > 1 {
                throw EvaluationError(
                    file: results.path, line: row.line,
                    reason: "--mot17 evaluates pedestrians only: class \(row.objectClass ?? 1) is in the results")
            }
        }
        for (file, frames) in [(groundTruth.path, gtRows), (results.path, trRows)] {
            for rows in frames {
                if rows.count > Self.maximumBoxesPerFrame, let row = rows.last {
                    throw EvaluationError(
                        file: file, line: row.line,
                        reason: "frame \(row.frame) has more than \(Self.maximumBoxesPerFrame) boxes")
                }
                var seen = Set<Int>()
                for row in rows where !seen.insert(row.id).inserted {
                    throw EvaluationError(
                        file: file, line: row.line, reason: "the id \(row.id) appears twice in frame \(row.frame)")
                }
            }
        }
        var kept: [(gt: [MOTFile.Row], tr: [MOTFile.Row], similarity: [Double])] = []
        kept.reserveCapacity(frameNumbers.count)
        var ignored = 0
        var removed = 0
        for t in frameNumbers.indices {
            var gts = gtRows[t]
            var trs = trRows[t]
            var similarity = Self.ious(gts.map(\.box), trs.map(\.box))
            if mot17 && !gts.isEmpty && !trs.isEmpty {
                for row in gts where !(1...13).contains(Self.integer(row.objectClass ?? 1)) {
                    throw EvaluationError(
                        file: groundTruth.path, line: row.line,
                        reason: "class \(row.objectClass ?? 0) is not a MOTChallenge class (1 to 13)")
                }
                let scores = similarity.map { $0 < 0.5 - Double.ulpOfOne ? 0 : -$0 }
                let matches = LinearSumAssignment.minimumCost(scores, rows: gts.count, columns: trs.count)
                var remove = Set<Int>()
                for match in matches where -scores[match.row * trs.count + match.column] > Double.ulpOfOne {
                    if Self.distractorClasses.contains(Self.integer(gts[match.row].objectClass ?? 1)) {
                        remove.insert(match.column)
                    }
                }
                if !remove.isEmpty {
                    removed += remove.count
                    let keepColumns = trs.indices.filter { !remove.contains($0) }
                    similarity = gts.indices.flatMap { g in keepColumns.map { similarity[g * trs.count + $0] } }
                    trs = keepColumns.map { trs[$0] }
                }
            }
            let keepRows = gts.indices.filter { g in
                // TrackEval reads both columns as integers (truncating).
                gts[g].flag.map(Self.integer) != 0 && (!mot17 || gts[g].objectClass.map(Self.integer) == 1)
            }
            if keepRows.count != gts.count {
                ignored += gts.count - keepRows.count
                similarity = keepRows.flatMap { g in trs.indices.map { similarity[g * trs.count + $0] } }
                gts = keepRows.map { gts[$0] }
            }
            kept.append((gts, trs, similarity))
        }
        let gtIDs = Set(kept.flatMap { $0.gt.map(\.id) }).sorted()
        let trIDs = Set(kept.flatMap { $0.tr.map(\.id) }).sorted()
        let gtIndex = Dictionary(uniqueKeysWithValues: gtIDs.enumerated().map { ($1, $0) })
        let trIndex = Dictionary(uniqueKeysWithValues: trIDs.enumerated().map { ($1, $0) })
        frames = kept.map { frame in
            Frame(
                groundTruthIDs: frame.gt.map { gtIndex[$0.id]! }, trackerIDs: frame.tr.map { trIndex[$0.id]! },
                similarity: frame.similarity)
        }
        groundTruthIDCount = gtIDs.count
        trackerIDCount = trIDs.count
        groundTruthCount = kept.reduce(0) { $0 + $1.gt.count }
        trackerCount = kept.reduce(0) { $0 + $1.tr.count }
        ignoredGroundTruthCount = ignored
        removedTrackerCount = removed
    }

    /// A column read as an integer, as TrackEval's `astype(int)` reads it: truncated toward zero; values beyond
    /// what an integer holds are taken as the largest (or smallest) one instead of stopping the program.
    static func integer(_ value: Double) -> Int {
        if value >= 9.2e18 { return Int.max }
        if value <= -9.2e18 { return Int.min }
        return Int(value)
    }

    /// TrackEval's `_calculate_box_ious` for `xywh` boxes: row-major `gts.count × trs.count`; 0 where either box
    /// has no area or the union is empty.
    static func ious(_ gts: [BoundingBox], _ trs: [BoundingBox]) -> [Double] {
        let eps = Double.ulpOfOne
        var result = [Double](repeating: 0, count: gts.count * trs.count)
        for (g, a) in gts.enumerated() {
            let (ax1, ay1) = (a.x + a.width, a.y + a.height)
            let areaA = (ax1 - a.x) * (ay1 - a.y)
            for (t, b) in trs.enumerated() {
                let (bx1, by1) = (b.x + b.width, b.y + b.height)
                let areaB = (bx1 - b.x) * (by1 - b.y)
                var intersection = max(min(ax1, bx1) - max(a.x, b.x), 0) * max(min(ay1, by1) - max(a.y, b.y), 0)
                var union = areaA + areaB - intersection
                if areaA <= 0 + eps || areaB <= 0 + eps || union <= 0 + eps { intersection = 0 }
                if union <= 0 + eps { union = 1 }
                result[g * trs.count + t] = intersection / union
            }
        }
        return result
    }
}
