/// A tracker's results evaluated against ground truth over one or more sequences: HOTA, CLEAR and Identity, per
/// sequence and combined as TrackEval combines sequences (`COMBINED_SEQ`).
package struct TrackingEvaluation: Sendable {
    /// One sequence's metrics.
    package struct SequenceResult: Sendable {
        /// The sequence.
        package var name: String
        package var hota: HOTAMetric
        package var clear: CLEARMetric
        package var identity: IdentityMetric
        /// Ground-truth and tracker boxes evaluated, ground-truth rows left out, tracker rows removed (`--mot17`).
        package var groundTruthCount: Int
        package var trackerCount: Int
        package var ignoredGroundTruthCount: Int
        package var removedTrackerCount: Int
        /// Distinct ground-truth objects and tracks.
        package var groundTruthIDCount: Int
        package var trackerIDCount: Int
    }

    /// Each sequence, in the order given.
    package var sequences: [SequenceResult]
    /// All sequences combined.
    package var combined: SequenceResult

    /// Evaluates each sequence and combines them.
    package init(_ sequences: [TrackingSequence]) {
        self.sequences = sequences.map { sequence in
            SequenceResult(
                name: sequence.name, hota: HOTAMetric(sequence), clear: CLEARMetric(sequence),
                identity: IdentityMetric(sequence), groundTruthCount: sequence.groundTruthCount,
                trackerCount: sequence.trackerCount, ignoredGroundTruthCount: sequence.ignoredGroundTruthCount,
                removedTrackerCount: sequence.removedTrackerCount, groundTruthIDCount: sequence.groundTruthIDCount,
                trackerIDCount: sequence.trackerIDCount)
        }
        let parts = self.sequences
        combined = SequenceResult(
            name: "combined", hota: HOTAMetric(combining: parts.map(\.hota)),
            clear: CLEARMetric(combining: parts.map(\.clear)),
            identity: IdentityMetric(combining: parts.map(\.identity)),
            groundTruthCount: parts.reduce(0) { $0 + $1.groundTruthCount },
            trackerCount: parts.reduce(0) { $0 + $1.trackerCount },
            ignoredGroundTruthCount: parts.reduce(0) { $0 + $1.ignoredGroundTruthCount },
            removedTrackerCount: parts.reduce(0) { $0 + $1.removedTrackerCount },
            groundTruthIDCount: parts.reduce(0) { $0 + $1.groundTruthIDCount },
            trackerIDCount: parts.reduce(0) { $0 + $1.trackerIDCount })
    }
}

extension TrackingEvaluation.SequenceResult {
    /// The summary numbers, by the names `eval track --json` gives them: fractions, then counts.
    package var summary: [(name: String, value: Double, isCount: Bool)] {
        func mean(_ values: [Double]) -> Double { values.reduce(0, +) / Double(values.count) }
        return [
            ("HOTA", mean(hota.hota), false), ("DetA", mean(hota.detectionAccuracy), false),
            ("AssA", mean(hota.associationAccuracy), false), ("DetRe", mean(hota.detectionRecall), false),
            ("DetPr", mean(hota.detectionPrecision), false), ("AssRe", mean(hota.associationRecall), false),
            ("AssPr", mean(hota.associationPrecision), false), ("LocA", mean(hota.localizationAccuracy), false),
            ("MOTA", clear.mota, false), ("MOTP", clear.motp, false), ("IDF1", identity.f1, false),
            ("IDP", identity.precision, false), ("IDR", identity.recall, false),
            ("IDSW", Double(clear.identitySwitches), true), ("FP", Double(clear.falsePositives), true),
            ("FN", Double(clear.falseNegatives), true), ("TP", Double(clear.truePositives), true),
            ("IDTP", Double(identity.truePositives), true), ("IDFP", Double(identity.falsePositives), true),
            ("IDFN", Double(identity.falseNegatives), true), ("MT", Double(clear.mostlyTracked), true),
            ("PT", Double(clear.partiallyTracked), true), ("ML", Double(clear.mostlyLost), true),
            ("Frag", Double(clear.fragmentations), true), ("GT", Double(groundTruthCount), true),
            ("GT_IDs", Double(groundTruthIDCount), true), ("Tracker", Double(trackerCount), true),
            ("Tracker_IDs", Double(trackerIDCount), true),
        ]
    }
}
