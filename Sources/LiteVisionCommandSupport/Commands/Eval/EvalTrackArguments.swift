import ArgumentParser
import LiteVisionEvaluation

/// The arguments of `litevision eval track`, and its work: MOTChallenge files evaluated with HOTA, CLEAR and
/// Identity as TrackEval computes them.
package struct EvalTrackArguments: ParsableArguments {
    /// The command's name and help.
    package static let configuration = CommandConfiguration(
        commandName: "track",
        abstract: "Evaluate tracking results against ground truth (HOTA, CLEAR, Identity, as TrackEval computes them).",
        discussion: """
            Both files are MOTChallenge text: frame,id,x,y,w,h[,conf,class,visibility], frames from 1. Every \
            ground-truth row is evaluated, whatever its class, except rows whose seventh column (MOTChallenge's \
            "consider" flag) cuts to 0 as a whole number (0, or a score such as 0.87 or -0.5; -1 and 2 are \
            evaluated; give `track --mot` output a 1 there to use it as ground truth) - TrackEval's \
            MotChallenge2DBox with DO_PREPROC off. --mot17 adds \
            MOTChallenge's rules (pedestrians only, tracker boxes on distractors removed). Several sequences: \
            --gt-dir holds SEQ.txt files or MOTChallenge's SEQ/gt/gt.txt folders, --results-dir the SEQ.txt files; they are \
            combined as TrackEval combines sequences. MOTA can be negative (more errors than objects).
            """
    )

    /// The arguments, as ArgumentParser fills them.
    package init() {}

    @Option(name: .long, help: "The ground truth of one sequence (MOTChallenge text).")
    package var gt: String?

    @Option(name: .long, help: "The tracker's results for it (MOTChallenge text, e.g. from `litevision track --mot`).")
    package var results: String?

    @Option(name: .customLong("gt-dir"), help: "A folder of ground truths: SEQ.txt files, or SEQ/gt/gt.txt.")
    package var gtDirectory: String?

    @Option(name: .customLong("results-dir"), help: "A folder of results: SEQ.txt for each ground truth.")
    package var resultsDirectory: String?

    @Flag(name: .long, help: "MOT17's rules: pedestrians (class 1) only, tracker boxes matched to distractors removed.")
    package var mot17 = false

    @Flag(name: .long, help: "Print one JSON object (fractions, counts as integers) instead of a table.")
    package var json = false

    /// Sequences at most.
    package static let maximumSequenceCount = 10_000

    package func validate() throws {
        let single = gt != nil || results != nil
        let folders = gtDirectory != nil || resultsDirectory != nil
        if single == folders || (single && (gt == nil || results == nil))
            || (folders && (gtDirectory == nil || resultsDirectory == nil))
        {
            throw ValidationError("Give --gt FILE --results FILE, or --gt-dir DIR --results-dir DIR.")
        }
    }

    /// Reads the files, evaluates, prints.
    package func run() throws {
        let evaluation: TrackingEvaluation
        do {
            evaluation = TrackingEvaluation(try sequences())
        } catch {
            Console.error("litevision: \(error)")
            throw ExitCode(2)
        }
        // A tracker's output given as ground truth: its seventh column is a score, which cuts to 0, so nothing counts.
        for sequence in evaluation.sequences
        where sequence.groundTruthCount == 0 && sequence.ignoredGroundTruthCount > 0 {
            Console.error(
                """
                litevision: warning: sequence '\(sequence.name)': none of its \(sequence.ignoredGroundTruthCount) \
                ground-truth rows is evaluated, as each has a seventh column that cuts to 0 (MOTChallenge's "consider" \
                flag); is the ground truth a tracker's output, whose seventh column is a score? Put 1 there to evaluate it.
                """)
        }
        Console.output(json ? EvalOutput.trackingJSON(evaluation) : EvalOutput.trackingTable(evaluation))
    }

    /// The sequences the arguments name, read and joined.
    private func sequences() throws(EvaluationError) -> [TrackingSequence] {
        if let gt, let results {
            return [try sequence(name: Self.stem(results), gt: gt, results: results)]
        }
        let gtFolder = gtDirectory ?? ""
        let resultsFolder = resultsDirectory ?? ""
        // Both checked first, so that a mistyped results folder is named as such, not as a sequence without results.
        for (folder, option) in [(gtFolder, "--gt-dir"), (resultsFolder, "--results-dir")] {
            if let problem = EvalFolders.folderProblem(folder) {
                throw EvaluationError(file: folder, reason: "\(problem) (\(option))")
            }
        }
        var found: [TrackingSequence] = []
        // The ground truth of each sequence found so far, to refuse a sequence given twice (SEQ.txt and SEQ/gt/gt.txt).
        var groundTruths: [String: String] = [:]
        for name in try EvalFolders.entries(of: gtFolder, limit: Self.maximumSequenceCount) {
            let path = EvalFolders.join(gtFolder, name)
            let sequenceName: String
            let gtPath: String
            if name.hasSuffix(".txt") && EvalFolders.isFile(path) {
                sequenceName = String(name.dropLast(4))
                gtPath = path
            } else if EvalFolders.isFile(path + "/gt/gt.txt") {
                sequenceName = name
                gtPath = path + "/gt/gt.txt"
            } else {
                continue
            }
            if let other = groundTruths.updateValue(gtPath, forKey: sequenceName) {
                throw EvaluationError(
                    file: gtFolder,
                    reason: "the sequence \(sequenceName) has two ground truths, \(other) and \(gtPath): keep one")
            }
            let resultsPath = EvalFolders.join(resultsFolder, sequenceName + ".txt")
            guard EvalFolders.isFile(resultsPath) else {
                throw EvaluationError(file: resultsPath, reason: "no results for the sequence \(sequenceName)")
            }
            found.append(try sequence(name: sequenceName, gt: gtPath, results: resultsPath))
        }
        guard !found.isEmpty else {
            throw EvaluationError(file: gtFolder, reason: "no ground truth in it (SEQ.txt files or SEQ/gt/gt.txt)")
        }
        return found
    }

    private func sequence(name: String, gt: String, results: String) throws(EvaluationError) -> TrackingSequence {
        try TrackingSequence(
            name: name, groundTruth: MOTFile(contentsOfFile: gt), results: MOTFile(contentsOfFile: results),
            mot17: mot17)
    }

    private static func stem(_ path: String) -> String {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        return name.hasSuffix(".txt") ? String(name.dropLast(4)) : name
    }
}
