import Dispatch
import LiteRT
import LiteVisionImaging
import LiteVisionModelStore

/// Labels images with a custom TFLite classifier, as ML Kit's `ImageLabeler` with
/// `CustomImageLabelerOptions`.
///
/// ```swift
/// let labeler = try ImageLabeler.imageLabeler(
///     options: CustomImageLabelerOptions(localModel: LocalModel(path: "bird.tflite")))
/// let image = try VisionImage(contentsOfFile: "bird.jpg")
/// for label in try labeler.results(in: image) {
///     print(label.text, label.confidence)
/// }
/// ```
///
/// A labeler is `Sendable`: share one between threads and tasks. Each call gets a compiled copy of the
/// model to itself (up to one per core; further callers wait), so concurrent calls return exactly what
/// serial calls return.
public final class ImageLabeler: Sendable {
    /// The options the labeler was made with.
    public let options: CustomImageLabelerOptions
    /// The confidence threshold in effect: the option if valid, else the model's metadata threshold, else 0.
    public var confidenceThreshold: Float { filter.threshold }
    /// The number of labels returned at most: the option if valid, else 10.
    public var maxResultCount: Int { filter.maxCount }
    /// The smallest width and height of an image the labeler accepts.
    public static let minimumImageDimension = 16

    let classifier: ClassifierModel
    let filter: LabelFilter

    /// A labeler for `options`.
    /// - Throws: ``VisionError`` when the model is missing, not a TFLite model, breaks the custom-model
    ///   requirements, its labels do not match, or the LiteRT runtime cannot be loaded.
    public static func imageLabeler(options: CustomImageLabelerOptions) throws(VisionError) -> ImageLabeler {
        try ImageLabeler(options: options)
    }

    init(options: CustomImageLabelerOptions) throws(VisionError) {
        self.options = options
        Runtime.startLoading(libraryPath: options.processing.runtimeLibraryPath)
        let model: ResolvedModel
        do {
            model = try options.model.resolve()
        } catch {
            throw VisionError(error)
        }
        classifier = try ClassifierModel(model, settings: options.processing, locale: options.labelLocale)
        filter = LabelFilter(
            threshold: options.confidenceThreshold, maxCount: options.maxResultCount,
            metadataThreshold: classifier.metadataThreshold)
    }

    /// The model's input size (width, height): the size every image is resized to.
    public var inputSize: (width: Int, height: Int) { (classifier.input.width, classifier.input.height) }

    /// The model's labels, if it has any (from its metadata or the label file given).
    public var labels: [String]? { classifier.labels }

    /// Labels `image` synchronously: the labels with confidence at or above the threshold, highest first
    /// (ties by index), at most ``maxResultCount``.
    public func results(in image: VisionImage) throws(VisionError) -> [ImageLabel] {
        let oriented = try image.oriented(
            forInputWidth: classifier.input.width, height: classifier.input.height,
            scale: options.processing.decodingScale)
        let pixels = oriented.pixels
        guard pixels.width >= Self.minimumImageDimension, pixels.height >= Self.minimumImageDimension else {
            throw .invalidImage(
                "it is \(pixels.width)x\(pixels.height) pixels; labeling needs at least \(Self.minimumImageDimension)x\(Self.minimumImageDimension)"
            )
        }
        let labels = classifier.labels
        return try classifier.withScores(of: oriented) { scores in
            filter.select(scores).map { entry in
                ImageLabel(text: labels?[entry.index] ?? "", confidence: entry.score, index: entry.index)
            }
        }
    }

    /// Labels `image` without blocking the caller.
    @concurrent
    public func process(_ image: VisionImage) async throws(VisionError) -> [ImageLabel] {
        try results(in: image)
    }

    /// Labels `image` in the background and calls `completion` with the labels or the error, as ML Kit's
    /// `process(_:completion:)`. ML Kit calls back on the main thread; Linux programs often run no main
    /// loop, so LiteVision calls back on `queue`, a background queue unless you pass `.main`.
    public func process(
        _ image: VisionImage, queue: DispatchQueue = .global(qos: .userInitiated),
        completion: @escaping @Sendable ([ImageLabel]?, VisionError?) -> Void
    ) {
        runInBackground(on: queue, { () throws(VisionError) in try self.results(in: image) }, completion: completion)
    }
}
