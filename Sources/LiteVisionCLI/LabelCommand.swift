import ArgumentParser
import LiteVisionCommandSupport
import FoundationEssentials
import LiteVision
import LiteVisionSystem

/// `litevision label`: image labeling with a custom classifier.
struct LabelCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "label",
        abstract: "Label images with a TFLite classifier (ML Kit's custom image labeling).",
        discussion: """
            Each IMAGE may be a JPEG or PNG file, or a folder whose JPEG and PNG files are labeled in name order. \
            A file that cannot be labeled gets a one-line error on standard error and the others go on; the exit \
            status is then 1. A damaged image (a corrupt or cut-short JPEG, a PNG with a bad CRC) is such a file \
            unless --lenient-decoding is given.
            """
    )

    @Option(name: .long, help: "The TFLite classifier (.tflite), or an AutoML manifest.json.")
    var model: String?

    @OptionGroup var remote: RemoteModelArguments

    @OptionGroup var inference: InferenceTimeoutArguments

    @Option(name: .long, help: "A label file (one label per line) for a model without labels in its metadata.")
    var labels: String?

    @Option(name: .long, help: "Minimum confidence, 0...1 (default: the model's metadata threshold, else 0).")
    var threshold: Float?

    @Option(name: .customLong("max-results"), help: "Labels per image at most (default 10).")
    var maxResults: Int?

    @Option(
        name: .long,
        help: ThreadCountArgument.help(
            defaultCount: "the number of cores for one image, else 1 per image, one per core"))
    var threads: Int?

    @Flag(
        name: .customLong("fast-decode"),
        help: "Decode large JPEGs at 1/2-1/8 size in the DCT domain: faster, low-confidence scores move a little.")
    var fastDecode = false

    @Flag(name: .customLong("lenient-decoding"), help: ArgumentHelp(DecodingHelp.lenient))
    var lenientDecoding = false

    @Option(name: .long, help: ProcessingOptions.Preprocessing.help)
    var preprocessing: ProcessingOptions.Preprocessing = .exact

    @Flag(name: .long, help: "Print one JSON object per image (ML Kit's field names) instead of a table.")
    var json = false

    @Argument(help: "Image files or folders.")
    var images: [String]

    func validate() throws {
        if let threshold, !(0...1).contains(threshold) {
            throw ValidationError("--threshold must be between 0 and 1, got \(threshold).")
        }
        if let maxResults, maxResults < 1 {
            throw ValidationError("--max-results must be at least 1, got \(maxResults).")
        }
        try ThreadCountArgument.validate(threads)
        if (model == nil) == (remote.remoteModel == nil) {
            throw ValidationError("Give the classifier with --model FILE or --remote-model NAME (one of them).")
        }
        if labels != nil && model == nil { throw ValidationError("--labels goes with --model.") }
    }

    func run() throws {
        let options: CustomImageLabelerOptions
        if let remoteModel = try remote.prepare() {
            options = CustomImageLabelerOptions(remoteModel: remoteModel)
            options.modelCacheFolder = remote.cache
        } else if let model, model.hasSuffix(".json") {
            options = CustomImageLabelerOptions(localModel: LocalModel(manifestPath: model))
        } else if let model, let labels {
            options = CustomImageLabelerOptions(localModel: LocalModel(path: model, labelsPath: labels))
        } else {
            options = CustomImageLabelerOptions(localModel: LocalModel(path: model ?? ""))
        }
        options.confidenceThreshold = threshold.map { NSNumber(value: $0) }
        options.maxResultCount = maxResults
        let files = ImageFiles.expand(images)
        // One image: all cores on its inference. Many: one inference thread per worker, one worker per core,
        // so decoding is parallel too (see ImageLabeler.labelFiles).
        options.processing.threadCount = threads ?? (files.count > 1 ? 1 : ProcessInfo.processInfo.activeProcessorCount)
        if fastDecode { options.processing.decodingScale = .automatic }
        options.processing.allowsDamagedImageData = lenientDecoding
        options.processing.preprocessing = preprocessing
        options.processing.inferenceTimeout = inference.timeout
        // One photo in a fresh process: decode it while the runtime and model load.
        let prefetch =
            files.count == 1 && files[0].problem == nil && !fastDecode
            ? ImagePrefetch(path: files[0].path, allowsDamagedImageData: lenientDecoding) : nil
        let labeler: ImageLabeler
        do {
            labeler = try Console.silencingStandardError { () throws(VisionError) in
                try ImageLabeler(options: options)
            }
        } catch {
            Console.error("litevision: \(error)")
            throw ExitCode(2)
        }
        if files.isEmpty {
            Console.error("litevision: no images given (folders are searched for .jpg, .jpeg and .png files)")
            throw ExitCode(2)
        }
        let progress = ProgressBar(total: files.count)
        var failures = 0
        // Paths that are known bad up front are reported without being opened.
        let readable = files.enumerated().filter { $0.element.problem == nil }
        var outcomes: [Int: Result<[ImageLabel], VisionError>] = [:]
        for (index, file) in files.enumerated() {
            if let problem = file.problem {
                outcomes[index] = .failure(.fileNotReadable(path: file.name, reason: problem))
            }
        }
        var printed = 0
        func printReady() {
            while let outcome = outcomes.removeValue(forKey: printed) {
                let path = files[printed].name
                progress.clear()
                switch outcome {
                case .success(let labels):
                    Console.output(
                        json
                            ? LabelOutput.jsonLine(file: path, labels: labels)
                            : LabelOutput.table(file: path, labels: labels))
                case .failure(let error):
                    failures += 1
                    Console.error("litevision: \(path): \(error)")
                    if json { Console.output(LabelOutput.jsonError(file: path, error: error)) }
                }
                progress.advance()
                printed += 1
            }
        }
        printReady()
        if let prefetch {
            outcomes[0] = prefetch.wait().flatMap { image in
                Result { () throws(VisionError) in try labeler.results(in: image) }
            }
            printReady()
        } else {
            labeler.labelFiles(readable.map(\.element.path)) { position, outcome in
                outcomes[readable[position].offset] = outcome
                printReady()
            }
        }
        progress.finish()
        if failures > 0 {
            Console.error("litevision: \(failures) of \(files.count) images could not be labeled")
        }
        // Leave at once, while the labeler is still referenced and without exit handlers: tearing down the
        // runtime (its worker threads, packed weights, static destructors) takes a few ms that a finished
        // command does not need. All output went out through unbuffered write(2) calls, so nothing is lost (a line
        // that could not be written makes the status 1).
        withExtendedLifetime(labeler) { Console.exitImmediately(failures > 0 ? 1 : 0) }
    }
}
