import Dispatch
import LiteVisionImaging
import LiteVisionModelStore

/// Labels images with a custom TFLite classifier (``CustomImageLabelerOptions``) or the built-in labeler
/// (``ImageLabelerOptions``), as ML Kit's `ImageLabeler`.
///
/// ```swift
/// let options = CustomImageLabelerOptions(localModel: LocalModel(path: "bird.tflite"))
/// let imageLabeler = ImageLabeler.imageLabeler(options: options)
/// let image = try VisionImage(contentsOfFile: "bird.jpg")
/// for label in try imageLabeler.results(in: image) {
///     print(label.text, label.confidence)
/// }
/// ```
///
/// As in ML Kit, ``imageLabeler(options:)`` always returns a labeler, and a model that cannot be used (missing,
/// not a TFLite model, breaking the custom-model requirements, labels that do not match, no LiteRT runtime) is
/// reported by every ``results(in:)`` and `process(_:completion:)` call. To find out at once,
/// use the throwing initializer ``init(options:)`` (LiteVision addition) or read ``loadError``.
///
/// The labeler takes a copy of the options when it is made: changing them afterwards has no effect on it.
///
/// A labeler is `Sendable`: share one between threads and tasks. Each call gets a compiled copy of the
/// model to itself (up to one per core; further callers wait), so concurrent calls return exactly what
/// serial calls return.
public final class ImageLabeler: Sendable {
    /// The smallest width and height of an image the labeler accepts.
    public static let minimumImageDimension = 16

    /// The settings the labeler was made with (a copy of the options).
    let configuration: LabelerConfiguration
    /// The loaded model, or why it could not be loaded.
    let loaded: LoadedEngine<LabelerEngine>

    /// A labeler for `options`, as ML Kit's `ImageLabeler.imageLabeler(options:)`: ``ImageLabelerOptions`` (the
    /// built-in labeler) or ``CustomImageLabelerOptions`` (your classifier). A model that cannot be used is
    /// reported by ``results(in:)`` and `process(_:completion:)` (and ``loadError``).
    ///
    /// Equal options give the same labeler, as for ``ObjectDetector/objectDetector(options:)``: code that makes
    /// fresh options and a labeler for every frame loads the model once. Options are equal when every setting
    /// is, the model included: the same files, unchanged on disk. A labeler is found again while anyone holds
    /// it, and the four labelers most recently returned stay alive even when nobody does; one whose model could
    /// not be loaded is not kept, so the next call tries again. ``init(options:)`` always makes a new labeler.
    public static func imageLabeler(options: CommonImageLabelerOptions) -> ImageLabeler {
        let configuration = options.configuration
        return shared.feature(
            for: configuration, files: configuration.modelFileIdentities,
            make: { ImageLabeler(configuration: configuration) }, keep: { $0.loadError == nil })
    }

    /// The built-in labeler with ML Kit's default options (see ``ImageLabelerOptions``).
    public static func imageLabeler() -> ImageLabeler {
        imageLabeler(options: ImageLabelerOptions())
    }

    /// The labelers ``imageLabeler(options:)`` hands out, by their options.
    static let shared = FeatureCache<LabelerConfiguration, ImageLabeler>(recentLimit: 4)

    /// A new labeler for `options`, loading its model now (LiteVision addition): unlike
    /// ``imageLabeler(options:)``, never one shared with other callers.
    /// - Throws: ``VisionError`` when the model is missing, not a TFLite model, breaks the custom-model
    ///   requirements, its labels do not match, or the LiteRT runtime cannot be loaded.
    public convenience init(options: CommonImageLabelerOptions) throws(VisionError) {
        self.init(configuration: options.configuration)
        if let error = loaded.loadError { throw error }
    }

    init(configuration: LabelerConfiguration) {
        self.configuration = configuration
        loaded = LoadedEngine { () throws(VisionError) in try LabelerEngine(configuration) }
    }

    /// Why the model could not be loaded, or `nil` when the labeler is ready (LiteVision addition).
    public var loadError: VisionError? { loaded.loadError }

    /// The confidence threshold in effect: the option if valid, else the model's metadata threshold, else 0
    /// (0 when the model could not be loaded).
    public var confidenceThreshold: Float { loaded.engine?.filter.threshold ?? 0 }

    /// The number of labels returned at most: the option if valid, else 10; `Int.max` for the built-in labeler
    /// (every label above the threshold).
    public var maxResultCount: Int {
        loaded.engine?.filter.maxCount
            ?? LabelFilter(threshold: nil, maxCount: configuration.maxResultCount, metadataThreshold: nil).maxCount
    }

    /// The model's input size (width, height): the size every image is resized to ((0, 0) when the model could
    /// not be loaded).
    public var inputSize: (width: Int, height: Int) {
        guard let engine = loaded.engine else { return (0, 0) }
        return (engine.classifier.input.width, engine.classifier.input.height)
    }

    /// The model's labels, if it has any (from its metadata or the label file given).
    public var labels: [String]? { loaded.engine?.classifier.labels }

    /// Labels `image` synchronously: the labels with confidence at or above the threshold, highest first
    /// (ties by index), at most ``maxResultCount``.
    /// - Throws: ``VisionError``: the image cannot be decoded or is too small, or the model could not be loaded.
    public func results(in image: VisionImage) throws(VisionError) -> [ImageLabel] {
        try loaded.results(in: image)
    }

    /// Labels `image` without blocking the caller.
    @concurrent
    public func process(_ image: VisionImage) async throws(VisionError) -> [ImageLabel] {
        try results(in: image)
    }

    /// Labels `image` in the background and calls `completion` with the labels or the error, as ML Kit's
    /// `process(_:completion:)`.
    ///
    /// - Parameters:
    ///   - image: The image to process.
    ///   - queue: Where `completion` runs. By default (`nil`), as in ML Kit, on the **main queue** — when the
    ///     program services it: the main queue ran since the call began (the program called `dispatchMain()`,
    ///     runs `RunLoop.main`, or has an `async` main waiting). Otherwise — the main thread is busy or
    ///     blocked, for example waiting for this very result, or the program never runs a main loop —
    ///     `completion` runs on a background queue, so waiting for it never deadlocks. Pass a queue to choose.
    ///     ``ObjectDetector`` calls back by the same rules.
    ///   - completion: Called once with the labels, or `nil` and the error.
    public func process(
        _ image: VisionImage, queue: DispatchQueue? = nil,
        completion: @escaping @Sendable ([ImageLabel]?, VisionError?) -> Void
    ) {
        loaded.process(image, queue: queue, completion: completion)
    }

    /// Labels `image` in the background and calls `completion` with the labels (empty on error) and the
    /// error, for code that reads the labels without unwrapping them. Swift picks this form only when the
    /// completion's body needs a non-optional array; it calls back as `process(_:completion:)`.
    @_disfavoredOverload
    public func process(
        _ image: VisionImage, queue: DispatchQueue? = nil,
        completion: @escaping @Sendable ([ImageLabel], VisionError?) -> Void
    ) {
        loaded.processUnwrapped(image, queue: queue, completion: completion)
    }
}
