import ArgumentParser
import LiteVision

/// The options `detect` and `track` share: which detector, classification, and limits.
package struct DetectorArguments: ParsableArguments {
    /// The arguments, as ArgumentParser fills them.
    package init() {}

    @Flag(name: .long, help: "Return up to --max-objects objects instead of only the most prominent one.")
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

    @Option(name: .customLong("max-objects"), help: "Objects per image at most with --multiple (default 5).")
    package var maxObjects: Int?

    @Option(name: .long, help: "Minimum detector score of an object, 0...1 (default 0.5).")
    package var threshold: Float?

    @Option(
        name: .customLong("model-dir"),
        help: "Folder with the built-in models (default: LITEVISION_MODEL_DIR, then ~/.cache/litevision/models).")
    package var modelDirectory: String?

    @Option(name: .long, help: "Threads per inference (default: the number of cores).")
    package var threads: Int?

    package func validate() throws {
        if let threshold, !(0...1).contains(threshold) {
            throw ValidationError("--threshold must be between 0 and 1, got \(threshold).")
        }
        if let maxObjects, maxObjects < 1 {
            throw ValidationError("--max-objects must be at least 1, got \(maxObjects).")
        }
        if let threads, threads < 1 { throw ValidationError("--threads must be at least 1, got \(threads).") }
        if labels != nil && model == nil { throw ValidationError("--labels goes with --model.") }
        if model != nil && remote.remoteModel != nil {
            throw ValidationError("Classify with --model FILE or --remote-model NAME, not both.")
        }
        if detectorLabels != nil && detector == nil { throw ValidationError("--detector-labels goes with --detector.") }
    }

    /// The detector these arguments describe, in `mode`. Errors are printed and turn into exit status 2.
    package func makeDetector(mode: DetectorMode) throws -> ObjectDetector {
        var common = ObjectDetectorOptions()
        common.detectorMode = mode
        common.shouldEnableMultipleObjects = multiple
        common.shouldEnableClassification = classify || model != nil || remote.remoteModel != nil
        if let maxObjects { common.maximumObjectCount = maxObjects }
        if let threshold { common.detectionThreshold = threshold }
        if let threads { common.processing.threadCount = threads }
        common.modelDirectory = modelDirectory
        if let detector {
            common.detectorModel =
                detectorLabels.map { LocalModel(path: detector, labelsPath: $0) } ?? LocalModel(path: detector)
        }
        let remoteModel = try remote.prepare()
        do {
            return try Console.silencingStandardError { () throws(VisionError) in
                if let remoteModel {
                    var options = CustomObjectDetectorOptions(remoteModel: remoteModel)
                    options.common = common
                    options.shouldEnableClassification = true
                    return try ObjectDetector.objectDetector(options: options)
                }
                if let model {
                    var options = CustomObjectDetectorOptions(
                        localModel: labels.map { LocalModel(path: model, labelsPath: $0) } ?? LocalModel(path: model))
                    options.common = common
                    options.shouldEnableClassification = true
                    return try ObjectDetector.objectDetector(options: options)
                }
                return try ObjectDetector.objectDetector(options: common)
            }
        } catch {
            Console.error("litevision: \(error)")
            throw ExitCode(2)
        }
    }
}
