import ArgumentParser
import LiteVisionEvaluation

/// How `litevision eval` prints its results: readable tables, or one JSON object (`--json`) whose fractions are
/// numbers in [0, 1] (MOTA may be negative), counts integers, and undefined values null.
package enum EvalOutput {
    /// A fraction with four decimals, or "-" when undefined.
    package static func fraction(_ value: Double?) -> String { value.map { fixed($0, digits: 4) } ?? "-" }

    /// A fraction as a percentage with one decimal, or "-".
    package static func percent(_ value: Double?) -> String { value.map { fixed($0 * 100, digits: 1) + "%" } ?? "-" }

    private static func padded(_ text: String, _ width: Int) -> String {
        text.count >= width ? text : text + String(repeating: " ", count: width - text.count)
    }

    private static func row(_ cells: [String], widths: [Int]) -> String {
        zip(cells, widths).enumerated().map { index, pair in
            index == 0 ? padded(pair.0, pair.1) : pair.0.leftPadded(to: pair.1)
        }.joined(separator: "  ")
    }

    /// The lines of a table, its header first: the first column left-aligned and as wide as its widest cell, the
    /// others right-aligned, as wide as their widest cell and at least `minimumWidth` (so that a negative MOTA, a
    /// large id or count, or a long name keeps its row in line). Every row has a cell for each header.
    private static func table(_ header: [String], _ rows: [[String]], minimumWidth: Int) -> [ConsoleText] {
        precondition(rows.allSatisfy { $0.count == header.count }, "EvalOutput.table: a row without a cell per column")
        let widths = header.indices.map { column in
            rows.map { $0[column].count }.reduce(max(column == 0 ? 0 : minimumWidth, header[column].count), max)
        }
        return ([header] + rows).map { "\(row($0, widths: widths))" }
    }

    // MARK: classify

    /// Accuracy, the per-class table and the confusion matrix.
    package static func classificationTable(_ e: ClassificationEvaluation) -> ConsoleText {
        var lines: [ConsoleText] = [
            "\(e.count) photos, \(e.classes.count) classes",
            "top-1 accuracy  \(fraction(e.top1Accuracy))  (\(e.top1Correct) of \(e.count))",
            "top-5 accuracy  \(fraction(e.top5Accuracy))  (\(e.top5Correct) of \(e.count))",
            "macro F1        \(fraction(e.macroF1))",
            "",
        ]
        lines += table(
            ["class", "precision", "recall", "F1", "photos"],
            e.classes.map { [$0.name, fraction($0.precision), fraction($0.recall), fraction($0.f1), "\($0.support)"] },
            minimumWidth: 9)
        lines.append("")
        lines.append("confusion matrix (rows: expected class, columns: top label)")
        let labels = e.classes.map(\.name) + ["other"]
        let counts = e.confusion.enumerated().map { [e.classes[$0].name] + $1.map { "\($0)" } }
        // Every count column as wide as the widest label or count, so that the matrix stays square.
        let cellWidth = ([labels] + counts.map { Array($0.dropFirst()) }).joined().map(\.count).reduce(5, max)
        lines += table([""] + labels, counts, minimumWidth: cellWidth)
        return .lines(lines)
    }

    /// `{"top1Accuracy", "top5Accuracy", "macroF1", "images", "classes": [...], "confusion": {...}}`.
    package static func classificationJSON(_ e: ClassificationEvaluation) -> ConsoleText {
        let classes = e.classes.map { c -> JSONValue in
            .object([
                ("name", .string(c.name)), ("precision", .number(c.precision)), ("recall", .number(c.recall)),
                ("f1", .number(c.f1)), ("support", .number(Double(c.support))),
                ("truePositives", .number(Double(c.truePositives))),
                ("falsePositives", .number(Double(c.falsePositives))),
            ])
        }
        let value = JSONValue.object([
            ("top1Accuracy", .number(e.top1Accuracy)), ("top5Accuracy", .number(e.top5Accuracy)),
            ("macroF1", .number(e.macroF1)), ("images", .number(Double(e.count))),
            ("top1Correct", .number(Double(e.top1Correct))), ("top5Correct", .number(Double(e.top5Correct))),
            ("classes", .array(classes)),
            (
                "confusion",
                .object([
                    ("labels", .array((e.classes.map(\.name) + ["other"]).map { .string($0) })),
                    ("counts", .array(e.confusion.map { .array($0.map { .number(Double($0)) }) })),
                ])
            ),
        ])
        return .json(value.text)
    }

    // MARK: detect

    private static let statDescriptions = [
        "IoU=0.50:0.95  area=all     maxDets=100", "IoU=0.50       area=all     maxDets=100",
        "IoU=0.75       area=all     maxDets=100", "IoU=0.50:0.95  area=small   maxDets=100",
        "IoU=0.50:0.95  area=medium  maxDets=100", "IoU=0.50:0.95  area=large   maxDets=100",
        "IoU=0.50:0.95  area=all     maxDets=1", "IoU=0.50:0.95  area=all     maxDets=10",
        "IoU=0.50:0.95  area=all     maxDets=100", "IoU=0.50:0.95  area=small   maxDets=100",
        "IoU=0.50:0.95  area=medium  maxDets=100", "IoU=0.50:0.95  area=large   maxDets=100",
    ]

    /// The 12 COCO numbers, then each category.
    package static func detectionTable(_ e: COCOEvaluation) -> ConsoleText {
        var lines: [ConsoleText] = [
            "COCO box evaluation: \(e.imageCount) images, \(e.annotationCount) annotations, \(e.detectionCount) detections",
            "",
        ]
        for (index, name) in COCOEvaluation.statNames.enumerated() {
            lines.append("\(padded(name, 6)) \(padded(statDescriptions[index], 41))  \(fraction(e.stats[index]))")
        }
        lines.append("")
        let rows = e.categories.map { c in
            [
                c.category.name, "\(c.category.id)", fraction(c.ap), fraction(c.ap50), fraction(c.ap75),
                fraction(c.ar100), "\(c.groundTruthCount)", "\(c.detectionCount)",
            ]
        }
        lines += table(["category", "id", "AP", "AP50", "AP75", "AR100", "GT", "detections"], rows, minimumWidth: 6)
        return .lines(lines)
    }

    /// `{"AP": ..., ..., "ARl": ..., "images", "annotations", "detections", "categories": [...]}`.
    package static func detectionJSON(_ e: COCOEvaluation) -> ConsoleText {
        var members: [(key: String, value: JSONValue)] = zip(COCOEvaluation.statNames, e.stats).map {
            ($0, .number($1))
        }
        members += [
            ("images", .number(Double(e.imageCount))), ("annotations", .number(Double(e.annotationCount))),
            ("detections", .number(Double(e.detectionCount))),
            ("unknownCategoryDetections", .number(Double(e.unknownCategoryCount))),
            (
                "categories",
                .array(
                    e.categories.map { c in
                        .object([
                            ("id", .number(Double(c.category.id))), ("name", .string(c.category.name)),
                            ("AP", .number(c.ap)), ("AP50", .number(c.ap50)), ("AP75", .number(c.ap75)),
                            ("AR100", .number(c.ar100)), ("groundTruth", .number(Double(c.groundTruthCount))),
                            ("detections", .number(Double(c.detectionCount))),
                        ])
                    })
            ),
        ]
        return .json(JSONValue.object(members).text)
    }

    // MARK: track

    private static let trackColumns = [
        "HOTA", "DetA", "AssA", "LocA", "MOTA", "MOTP", "IDF1", "IDP", "IDR", "IDSW", "FP", "FN",
    ]

    /// One row per sequence, then the combined row: with one sequence, only when it prints other numbers than the
    /// sequence's own (TrackEval's `COMBINED_SEQ` recomputes MOTA from the counts, where a sequence without ground
    /// truth keeps its own at 0).
    package static func trackingTable(_ e: TrackingEvaluation) -> ConsoleText {
        let sequenceCells = e.sequences.map(trackingCells), combinedCells = trackingCells(e.combined)
        var rows = zip(e.sequences.map(\.name), sequenceCells).map { [$0] + $1 }
        if e.sequences.count != 1 || sequenceCells[0] != combinedCells {
            rows.append([e.combined.name] + combinedCells)
        }
        var lines = table(["sequence"] + trackColumns, rows, minimumWidth: 6)
        let c = e.combined
        let ignored = c.ignoredGroundTruthCount > 0 ? " (\(c.ignoredGroundTruthCount) rows not evaluated)" : ""
        let removed = c.removedTrackerCount > 0 ? " (\(c.removedTrackerCount) on distractors removed)" : ""
        let truth = "\(c.groundTruthCount) boxes of \(c.groundTruthIDCount) objects\(ignored)"
        lines.append("ground truth: \(truth); results: \(c.trackerCount) boxes of \(c.trackerIDCount) tracks\(removed)")
        return .lines(lines)
    }

    /// The table's cells of one row (without its name): fractions to 4 digits, counts whole.
    private static func trackingCells(_ result: TrackingEvaluation.SequenceResult) -> [String] {
        let values = Dictionary(
            result.summary.map { ($0.name, ($0.value, $0.isCount)) }, uniquingKeysWith: { a, _ in a })
        return trackColumns.map { name -> String in
            guard let (value, isCount) = values[name] else { return "-" }
            return isCount ? "\(Int(value))" : fixed(value, digits: 4)
        }
    }

    /// The combined summary's numbers at the top level, and `"sequences": {"NAME": {...}}`.
    package static func trackingJSON(_ e: TrackingEvaluation) -> ConsoleText {
        func object(_ result: TrackingEvaluation.SequenceResult) -> [(key: String, value: JSONValue)] {
            result.summary.map { ($0.name, .number($0.value)) }
                + [
                    ("ignoredGroundTruth", .number(Double(result.ignoredGroundTruthCount))),
                    ("removedTracker", .number(Double(result.removedTrackerCount))),
                ]
        }
        let sequences = JSONValue.object(e.sequences.map { ($0.name, .object(object($0))) })
        return .json(JSONValue.object(object(e.combined) + [("sequences", sequences)]).text)
    }

    /// Draws `plot` to `path` with `writer`; a failure is printed and ends the command with status 1.
    package static func write(_ plot: EvaluationPlot, to path: String, with writer: EvaluationPlot.Writer) throws {
        do {
            try writer(plot, path)
        } catch {
            Console.error("litevision: --plot \(path): \(error)")
            throw ExitCode(1)
        }
    }
}
