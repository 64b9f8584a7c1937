import ArgumentParser
import FoundationEssentials
import LiteVision
import LiteVisionSystem

/// The arguments of `litevision label` (image labeling with a custom classifier), and the command's work.
package struct LabelArguments: ParsableArguments {
    /// The command's name and help.
    package static let configuration = CommandConfiguration(
        commandName: "label",
        abstract: "Label images with a TFLite classifier (ML Kit's custom image labeling).",
        discussion: """
            Each IMAGE may be a JPEG or PNG file, or a folder whose JPEG and PNG files are labeled in name order. \
            A file that cannot be labeled gets a one-line error on standard error and the others go on; the exit \
            status is then 1. A damaged image (a corrupt or cut-short JPEG, a PNG with a bad CRC) is such a file \
            unless --lenient-decoding is given.
            """
    )

    /// The arguments, as ArgumentParser fills them.
    package init() {}

    @Option(name: .long, help: "The TFLite classifier (.tflite), or an AutoML manifest.json.")
    package var model: String?

    @OptionGroup package var remote: RemoteModelArguments

    @Option(name: .long, help: "A label file (one label per line) for a model without labels in its metadata.")
    package var labels: String?

    @Option(name: .long, help: "Minimum confidence, 0...1 (default: the model's metadata threshold, else 0).")
    package var threshold: Float?

    @Option(name: .customLong("max-results"), help: "Labels per image at most (default 10).")
    package var maxResults: Int?

    /// What `label` uses without `--threads`.
    package enum ThreadDefault: ThreadCountDefault {
        package static let description = "the number of cores for one image, else 1 per image, one per core"
    }

    @OptionGroup package var processing: ProcessingArguments<ThreadDefault>

    @Flag(
        name: .customLong("fast-decode"),
        help: "Decode large JPEGs at 1/2-1/8 size in the DCT domain: faster, low-confidence scores move a little.")
    package var fastDecode = false

    @OptionGroup package var decoding: DecodingArguments

    @Flag(name: .long, help: "Print one JSON object per image (ML Kit's field names) instead of a table.")
    package var json = false

    @Argument(help: "Image files or folders.")
    package var images: [String]

    package func validate() throws {
        if let threshold, !(0...1).contains(threshold) {
            throw ValidationError("--threshold must be between 0 and 1, got \(threshold).")
        }
        if let maxResults, maxResults < 1 {
            throw ValidationError("--max-results must be at least 1, got \(maxResults).")
        }
        try ThreadCountArgument.validate(processing.threads)
        if (model == nil) == (remote.remoteModel == nil) {
            throw ValidationError("Give the classifier with --model FILE or --remote-model NAME (one of them).")
        }
        if labels != nil && model == nil { throw ValidationError("--labels goes with --model.") }
    }

    /// Labels every image, printing each result in the order of the arguments, then ends the process: with
    /// status 1 when an image could not be labeled, 2 when there is no image or the classifier cannot be loaded
    /// (nothing is printed then), 0 otherwise.
    package func run() throws {
        let files = ImageFiles.expand(images)
        // Before the model is fetched and loaded: with nothing to label, the command ends at once.
        if files.isEmpty {
            Console.error("litevision: no images given (folders are searched for .jpg, .jpeg and .png files)")
            throw ExitCode(2)
        }
        let options = try labelerOptions(imageCount: files.count)
        // One photo in a fresh process: decode it while the runtime and model load.
        let prefetch =
            files.count == 1 && files[0].problem == nil && !fastDecode
            ? ImagePrefetch(
                path: files[0].path, allowsDamagedImageData: decoding.lenient, preprocessing: processing.preprocessing)
            : nil
        let labeler = try Self.makeLabeler(options: options)
        let printer = LabelPrinter(files: files, json: json)
        if let prefetch {
            printer.add(
                prefetch.wait().flatMap { image in
                    Result { () throws(VisionError) in try labeler.results(in: image) }
                }, at: 0)
        } else {
            // Paths that are known bad up front are reported without being opened.
            let readable = files.indices.filter { files[$0].problem == nil }
            labeler.labelFiles(readable.map { files[$0].path }) { position, outcome in
                printer.add(outcome, at: readable[position])
            }
        }
        let failures = printer.finish()
        // Leave at once, while the labeler is still referenced and without exit handlers: tearing down the
        // runtime (its worker threads, packed weights, static destructors) takes a few ms that a finished
        // command does not need. All output went out through unbuffered write(2) calls, so nothing is lost (a line
        // that could not be written makes the status 1).
        withExtendedLifetime(labeler) { Console.exitImmediately(failures > 0 ? 1 : 0) }
    }

    /// The labeler's options these arguments describe, for `imageCount` images.
    private func labelerOptions(imageCount: Int) throws -> CustomImageLabelerOptions {
        let options: CustomImageLabelerOptions
        if let remoteModel = try remote.prepare() {
            options = CustomImageLabelerOptions(remoteModel: remoteModel)
            options.modelCacheFolder = remote.cache
        } else {
            options = CustomImageLabelerOptions(localModel: try Self.localModel(path: model ?? "", labels: labels))
        }
        options.confidenceThreshold = threshold.map { NSNumber(value: $0) }
        if let maxResults { options.maxResultCount = maxResults }
        // One image: all cores on its inference. Many: one inference thread per worker, one worker per core,
        // so decoding is parallel too (see ImageLabeler.labelFiles).
        processing.apply(
            to: &options.processing,
            defaultThreadCount: imageCount > 1 ? 1 : ProcessInfo.processInfo.activeProcessorCount)
        if fastDecode { options.processing.decodingScale = .automatic }
        options.processing.allowsDamagedImageData = decoding.lenient
        return options
    }

    /// The classifier `--model` names: an AutoML `manifest.json`, or a `.tflite` file with the label file `labels`
    /// when given.
    package static func localModel(path: String, labels: String?) throws -> LocalModel {
        if path.hasSuffix(".json") {
            do {
                return try LocalModel(validatingManifestPath: path)
            } catch {
                Console.error("litevision: \(error)")
                throw ExitCode(2)
            }
        }
        return labels.map { LocalModel(path: path, labelsPath: $0) } ?? LocalModel(path: path)
    }

    /// The labeler for `options`; one whose model cannot be loaded is printed and ends the command with status 2.
    package static func makeLabeler(options: CustomImageLabelerOptions) throws -> ImageLabeler {
        do {
            return try Console.silencingStandardError { () throws(VisionError) in
                try ImageLabeler(options: options)
            }
        } catch {
            Console.error("litevision: \(error)")
            throw ExitCode(2)
        }
    }
}
