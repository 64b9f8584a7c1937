import ArgumentParser
import FoundationEssentials
import LiteVision
import LiteVisionEvaluation
import LiteVisionSystem

/// The arguments of `litevision eval classify`, and its work: a classifier over a folder of photos sorted into
/// one folder per class.
package struct EvalClassifyArguments: ParsableArguments {
    /// The command's name and help.
    package static let configuration = CommandConfiguration(
        commandName: "classify",
        abstract: "Evaluate an image classifier on photos sorted into one folder per class.",
        discussion: """
            DIR holds one folder per class, named as the label the classifier should give (compared ignoring case); \
            the JPEG and PNG photos in each are that class's. Prints top-1 and top-5 accuracy, each class's \
            precision, recall and F1 (from the top label), and the confusion matrix, whose last column, "other", \
            counts photos whose top label is none of the classes. A photo that cannot be read is reported and left \
            out; the exit status is then 1.
            """
    )

    /// The arguments, as ArgumentParser fills them.
    package init() {}

    @Option(name: .long, help: "The TFLite classifier (.tflite), or an AutoML manifest.json.")
    package var model: String

    @Option(name: .long, help: "A label file (one label per line) for a model without labels in its metadata.")
    package var labels: String?

    /// What `eval classify` uses without `--threads`.
    package enum ThreadDefault: ThreadCountDefault {
        package static let description = "1 per photo, one photo per core"
    }

    @OptionGroup package var processing: ProcessingArguments<ThreadDefault>

    @OptionGroup package var decoding: DecodingArguments

    @Flag(name: .long, help: "Print one JSON object (fractions in [0, 1], counts as integers) instead of tables.")
    package var json = false

    @Option(name: .long, help: "Draw the confusion matrix into this PNG file.")
    package var plot: String?

    @Argument(help: "The folder of class folders.")
    package var directory: String

    /// Classes (folders) at most.
    package static let maximumClassCount = 10_000

    package func validate() throws {
        try ThreadCountArgument.validate(processing.threads)
        if let plot, !plot.lowercased().hasSuffix(".png") {
            throw ValidationError("--plot writes a PNG file: give a name ending in .png, not \(plot).")
        }
    }

    /// Runs the classifier over every photo, prints the evaluation, and draws it with `plotWriter` when `--plot`
    /// is given.
    package func run(plotWriter: EvaluationPlot.Writer?) throws {
        let classes: [String]
        do {
            classes = try EvalFolders.subfolders(of: directory, limit: Self.maximumClassCount)
        } catch {
            Console.error("litevision: \(error)")
            throw ExitCode(2)
        }
        try checkDistinct(classes)
        var samples: [(path: String, name: String, expected: Int)] = []
        for (index, name) in classes.enumerated() {
            for entry in ImageFiles.expand([EvalFolders.join(directory, name)]) where entry.problem == nil {
                samples.append((entry.path, entry.name, index))
            }
        }
        guard !samples.isEmpty else {
            Console.error("litevision: \(directory): no photos in its class folders (.jpg, .jpeg, .png)")
            throw ExitCode(2)
        }
        if let plot {
            try OutputPaths.check(inputs: samples.map(\.path) + [model] + (labels.map { [$0] } ?? [])) {
                outputs throws(OutputPathError) in try outputs.claimFile(plot, for: "--plot")
            }
        }
        let options = CustomImageLabelerOptions(localModel: try LabelArguments.localModel(path: model, labels: labels))
        // Every label counts for top-5, whatever the model's own threshold.
        options.confidenceThreshold = NSNumber(value: 0)
        options.maxResultCount = 5
        processing.apply(to: &options.processing, defaultThreadCount: 1)
        options.processing.allowsDamagedImageData = decoding.lenient
        let labeler = try LabelArguments.makeLabeler(options: options)
        try checkNamed(classes, by: labeler.labels ?? [])
        var outcomes = [[String]?](repeating: nil, count: samples.count)
        var failures = 0
        labeler.labelFiles(samples.map(\.path)) { index, result in
            switch result {
            case .success(let labels): outcomes[index] = labels.map(\.text)
            case .failure(let error):
                failures += 1
                Console.error("litevision: \(samples[index].name): \(error)")
            }
        }
        let evaluated = samples.indices.compactMap { index in
            outcomes[index].map { (expected: samples[index].expected, labels: $0) }
        }
        let evaluation = ClassificationEvaluation(classNames: classes, samples: evaluated)
        Console.output(json ? EvalOutput.classificationJSON(evaluation) : EvalOutput.classificationTable(evaluation))
        if let plot, let plotWriter {
            let top1 = EvalOutput.percent(evaluation.top1Accuracy)
            try EvalOutput.write(
                .confusionMatrix(
                    title: "Confusion matrix (\(evaluation.count) photos, top-1 \(top1))",
                    rowLabels: classes, columnLabels: classes + ["other"], counts: evaluation.confusion),
                to: plot, with: plotWriter)
        }
        if failures > 0 {
            Console.error("litevision: \(failures) of \(samples.count) photos could not be classified")
            throw ExitCode(1)
        }
    }

    /// Ends the command with status 2 when two class folders name the same class (names are compared ignoring case
    /// and surrounding spaces, as with the labels): each would get only some of the photos the label counts for.
    private func checkDistinct(_ classes: [String]) throws {
        var first: [String: String] = [:]
        for name in classes {
            let key = ClassificationEvaluation.normalized(name)
            if let earlier = first[key] {
                Console.error(
                    """
                    litevision: \(directory): the folders '\(earlier)' and '\(name)' name the same class (folder \
                    names are compared with the labels ignoring case): put their photos in one folder
                    """)
                throw ExitCode(2)
            }
            first[key] = name
        }
    }

    /// Ends the command with status 2 when the model has no labels or no class folder is named as one of them (every
    /// photo would count as wrong); warns of each class folder that is none of them.
    private func checkNamed(_ classes: [String], by labels: [String]) throws {
        let known = Set(labels.map(ClassificationEvaluation.normalized).filter { !$0.isEmpty })
        guard !known.isEmpty else {
            if let labels = self.labels {
                Console.error(
                    "litevision: --labels \(labels): no labels in it: give one label per line, in model order")
            } else {
                Console.error(
                    "litevision: --model \(model) has no labels in its metadata: give its label file with --labels FILE"
                )
            }
            throw ExitCode(2)
        }
        let unnamed = classes.filter { !known.contains(ClassificationEvaluation.normalized($0)) }
        guard unnamed.count < classes.count else {
            let named = labels.filter { !ClassificationEvaluation.normalized($0).isEmpty }
            let some = named.prefix(5).map { "'\($0)'" }.joined(separator: ", ")
            Console.error(
                """
                litevision: \(directory): no class folder is named as one of the model's \(named.count) labels \
                (\(some)\(named.count > 5 ? ", …" : "")): name each folder as the label of its class
                """)
            throw ExitCode(2)
        }
        for name in unnamed {
            Console.error(
                """
                litevision: warning: \(directory): class folder '\(name)' is none of the model's labels: its photos \
                count as wrong
                """)
        }
    }
}
