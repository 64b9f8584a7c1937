/// The CLEAR MOT metrics (Bernardin & Stiefelhagen, 2008) as TrackEval's `CLEAR` metric computes them: per frame,
/// boxes with IoU ≥ 0.5 are matched by the best assignment, keeping the previous frame's pairs first; an identity
/// switch is a ground-truth object matched to another track than at its last match. Sequences combine by summing.
package struct CLEARMetric: Sendable, Equatable {
    /// The IoU a match needs.
    package static let threshold = 0.5

    /// Matched boxes.
    package var truePositives = 0
    /// Ground-truth boxes not matched.
    package var falseNegatives = 0
    /// Tracker boxes not matched.
    package var falsePositives = 0
    /// Identity switches.
    package var identitySwitches = 0
    /// Ground-truth objects tracked for more than 80% of their life, at least 20%, and less.
    package var mostlyTracked = 0
    package var partiallyTracked = 0
    package var mostlyLost = 0
    /// Fragmentations: times a tracked object's track is interrupted and resumed.
    package var fragmentations = 0
    /// Sum of the IoUs of the matches.
    package var similaritySum = 0.0
    /// A sequence without ground truth or without results: TrackEval returns its counts without computing the
    /// ratios, so its own MOTA is 0 (combined with others, its counts count as usual).
    private var isEmptySequence = false

    /// MOTA = 1 − (FN + FP + IDSW) / GT.
    package var mota: Double {
        if isEmptySequence { return 0 }
        return Double(truePositives - falsePositives - identitySwitches)
            / max(1, Double(truePositives + falseNegatives))
    }
    /// MOTP: the mean IoU of the matches.
    package var motp: Double { similaritySum / max(1, Double(truePositives)) }

    /// The metrics of one sequence.
    package init(_ sequence: TrackingSequence) {
        let eps = Double.ulpOfOne
        if sequence.trackerCount == 0 {
            falseNegatives = sequence.groundTruthCount
            mostlyLost = sequence.groundTruthIDCount
            isEmptySequence = true
            return
        }
        if sequence.groundTruthCount == 0 {
            falsePositives = sequence.trackerCount
            isEmptySequence = true
            return
        }
        let G = sequence.groundTruthIDCount
        var gtIDCount = [Int](repeating: 0, count: G)
        var gtMatchedCount = [Int](repeating: 0, count: G)
        var gtFragmentCount = [Int](repeating: 0, count: G)
        // The tracker id each object was last matched to (ever, and in the previous frame); -1: none.
        var previousTracker = [Int](repeating: -1, count: G)
        var previousFrameTracker = [Int](repeating: -1, count: G)
        for frame in sequence.frames {
            let (g, t) = (frame.groundTruthIDs.count, frame.trackerIDs.count)
            if g == 0 {
                falsePositives += t
                continue
            }
            if t == 0 {
                falseNegatives += g
                for id in frame.groundTruthIDs { gtIDCount[id] += 1 }
                continue
            }
            var score = [Double](repeating: 0, count: g * t)
            for i in 0..<g {
                for j in 0..<t {
                    let s = frame.similarity[i * t + j]
                    let continuing = frame.trackerIDs[j] == previousFrameTracker[frame.groundTruthIDs[i]]
                    score[i * t + j] = s < Self.threshold - eps ? 0 : 1000 * (continuing ? 1 : 0) + s
                }
            }
            let matches = LinearSumAssignment.minimumCost(score.map { -$0 }, rows: g, columns: t).filter {
                score[$0.row * t + $0.column] > 0 + eps
            }
            for match in matches {
                let gtID = frame.groundTruthIDs[match.row]
                let previous = previousTracker[gtID]
                if previous != -1 && previous != frame.trackerIDs[match.column] { identitySwitches += 1 }
            }
            for id in frame.groundTruthIDs { gtIDCount[id] += 1 }
            let notPreviouslyTracked = previousFrameTracker.map { $0 == -1 }
            for i in previousFrameTracker.indices { previousFrameTracker[i] = -1 }
            for match in matches {
                let gtID = frame.groundTruthIDs[match.row]
                gtMatchedCount[gtID] += 1
                previousTracker[gtID] = frame.trackerIDs[match.column]
                previousFrameTracker[gtID] = frame.trackerIDs[match.column]
            }
            for i in 0..<G where notPreviouslyTracked[i] && previousFrameTracker[i] != -1 { gtFragmentCount[i] += 1 }
            truePositives += matches.count
            falseNegatives += g - matches.count
            falsePositives += t - matches.count
            var sum = 0.0
            for match in matches { sum += frame.similarity[match.row * t + match.column] }
            similaritySum += sum
        }
        for i in 0..<G where gtIDCount[i] > 0 {
            let ratio = Double(gtMatchedCount[i]) / Double(gtIDCount[i])
            if ratio > 0.8 {
                mostlyTracked += 1
            } else if ratio >= 0.2 {
                partiallyTracked += 1
            }
        }
        mostlyLost = G - mostlyTracked - partiallyTracked
        fragmentations = gtFragmentCount.reduce(0) { $0 + max(0, $1 - 1) }
    }

    /// Several sequences combined: every count and the IoU sum added up.
    package init(combining parts: [CLEARMetric]) {
        for part in parts {
            truePositives += part.truePositives
            falseNegatives += part.falseNegatives
            falsePositives += part.falsePositives
            identitySwitches += part.identitySwitches
            mostlyTracked += part.mostlyTracked
            partiallyTracked += part.partiallyTracked
            mostlyLost += part.mostlyLost
            fragmentations += part.fragmentations
            similaritySum += part.similaritySum
        }
    }
}
