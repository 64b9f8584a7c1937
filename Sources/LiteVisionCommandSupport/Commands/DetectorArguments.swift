import ArgumentParser
import LiteVision
import LiteVisionModelStore
import LiteVisionSystem

/// The options `detect` and `track` share: which detector, classification, and limits.
package struct DetectorArguments: ParsableArguments {
    /// The arguments, as ArgumentParser fills them.
    package init() {}

    @Flag(
        name: .long,
        help: "Return up to --max-objects objects instead of only the most prominent one (always on in eval detect).")
    package var multiple = false

    @Flag(name: .long, help: "Classify objects: ML Kit's five coarse categories, or with --model.")
    package var classify = false

    @Option(name: .long, help: "A TFLite classifier for the objects (custom classification; implies --classify).")
    package var model: String?

    @Option(name: .long, help: "A label file for --model, when its metadata has none.")
    package var labels: String?

    @OptionGroup package var remote: RemoteModelArguments

    @Option(name: .long, help: "An SSD-style TFLite detector instead of the built-in object localizer.")
    package var detector: String?

    @Option(name: .customLong("detector-labels"), help: "A label file for --detector, when its metadata has none.")
    package var detectorLabels: String?

    @Option(
        name: .customLong("max-objects"),
        help: "Objects per image at most with --multiple (default 5; 100 in eval detect).")
    package var maxObjects: Int?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Minimum detector score of an object, 0...1 (default 0.5; 0.05 in eval detect; "
                + "for track --detections, see the overview)."))
    package var threshold: Float?

    @Option(
        name: .customLong("model-dir"),
        help: "Folder with the built-in models (default: LITEVISION_MODEL_DIR, then ~/.cache/litevision/models).")
    package var modelDirectory: String?

    /// What `detect` and `track` use without `--threads`.
    package enum ThreadDefault: ThreadCountDefault {
        package static let description = "the number of cores"
    }

    @OptionGroup package var processing: ProcessingArguments<ThreadDefault>

    @Option(
        name: .customLong("label-threshold"),
        help: "Minimum confidence of an object's label with --model, 0...1 (default: the model's metadata, else 0).")
    package var labelThreshold: Float?

    @Option(name: .customLong("max-labels"), help: "Labels per object at most with --model (default 10).")
    package var maxLabels: Int?

    /// Whether these arguments turn classification on.
    package var classification: Bool { classify || model != nil || remote.remoteModel != nil }

    /// The files these arguments have read, for the output checks (``OutputPaths``): the classifier and the
    /// detector with their label files, the built-in models in every folder searched, the token and certificate
    /// files.
    package var inputPaths: [String] {
        let builtIn = ModelCatalog.searchFolders(modelDirectory: modelDirectory).flatMap { folder in
            BuiltInModel.allCases.map { (folder.hasSuffix("/") ? folder : folder + "/") + $0.rawValue }
        }
        let connection = remote.connection
        return [model, labels, detector, detectorLabels, connection.tokenFile, connection.cacert].compactMap { $0 }
            + builtIn
    }

    package func validate() throws {
        if modelDirectory?.isEmpty == true {
            throw ValidationError("--model-dir is empty: give the folder that holds the built-in models.")
        }
        var info = stat()
        if let modelDirectory, stat(modelDirectory, &info) == 0, (info.st_mode & S_IFMT) != S_IFDIR {
            throw ValidationError(
                "--model-dir \(modelDirectory) is \(fileKindDescription(info.st_mode)), not a folder of built-in models."
            )
        }
        if let threshold, !(0...1).contains(threshold) {
            throw ValidationError("--threshold must be between 0 and 1, got \(threshold).")
        }
        if let maxObjects, maxObjects < 1 {
            throw ValidationError("--max-objects must be at least 1, got \(maxObjects).")
        }
        try ThreadCountArgument.validate(processing.threads)
        if labels != nil && model == nil { throw ValidationError("--labels goes with --model.") }
        if model != nil && remote.remoteModel != nil {
            throw ValidationError("Classify with --model FILE or --remote-model NAME, not both.")
        }
        if detectorLabels != nil && detector == nil { throw ValidationError("--detector-labels goes with --detector.") }
        if let labelThreshold, !(0...1).contains(labelThreshold) {
            throw ValidationError("--label-threshold must be between 0 and 1, got \(labelThreshold).")
        }
        if let maxLabels, maxLabels < 1 { throw ValidationError("--max-labels must be at least 1, got \(maxLabels).") }
        if (labelThreshold != nil || maxLabels != nil) && model == nil && remote.remoteModel == nil {
            throw ValidationError(
                "--label-threshold and --max-labels go with --model or --remote-model (custom classification).")
        }
    }

    /// The detector options these arguments describe, in `mode` (a remote model is prepared: its download
    /// errors are printed and turn into exit status 2).
    package func makeOptions(mode: DetectorMode) throws -> CommonObjectDetectorOptions {
        let remoteModel = try remote.prepare()
        let options: CommonObjectDetectorOptions
        if let remoteModel {
            options = customOptions(CustomObjectDetectorOptions(remoteModel: remoteModel))
            options.modelCacheFolder = remote.cache
        } else if let model {
            options = customOptions(
                CustomObjectDetectorOptions(
                    localModel: labels.map { LocalModel(path: model, labelsPath: $0) } ?? LocalModel(path: model)))
        } else {
            options = ObjectDetectorOptions()
        }
        options.detectorMode = mode
        options.shouldEnableMultipleObjects = multiple
        options.shouldEnableClassification = classification
        if let maxObjects { options.maximumObjectCount = maxObjects }
        if let threshold { options.detectionThreshold = threshold }
        processing.apply(to: &options.processing)
        options.modelDirectory = modelDirectory
        if let detector {
            options.detectorModel =
                detectorLabels.map { LocalModel(path: detector, labelsPath: $0) } ?? LocalModel(path: detector)
        }
        return options
    }

    /// The detector of these arguments (see ``makeOptions(mode:)``); one whose models cannot be loaded is printed and
    /// ends the command with status 2.
    package func makeDetector(mode: DetectorMode) throws -> ObjectDetector {
        let options = try makeOptions(mode: mode)
        do {
            return try Console.silencingStandardError { () throws(VisionError) in
                try ObjectDetector(options: options)
            }
        } catch {
            Console.error("litevision: \(error)")
            throw ExitCode(2)
        }
    }

    /// `options` with the custom-classification limits of these arguments.
    private func customOptions(_ options: CustomObjectDetectorOptions) -> CustomObjectDetectorOptions {
        if let labelThreshold { options.classificationConfidenceThreshold = NSNumber(value: labelThreshold) }
        if let maxLabels { options.maxPerObjectLabelCount = maxLabels }
        return options
    }
}
