import Dispatch

/// Detects objects in images and video frames, tracks them across frames and optionally classifies them,
/// as ML Kit's `ObjectDetector`.
///
/// ```swift
/// let options = ObjectDetectorOptions()
/// options.detectorMode = .singleImage
/// options.shouldEnableMultipleObjects = true
/// options.shouldEnableClassification = true
/// let objectDetector = ObjectDetector.objectDetector(options: options)
/// for object in try objectDetector.results(in: try VisionImage(contentsOfFile: "burger.jpg")) {
///     print(object.frame, object.labels.first?.text ?? "-")      // (…) Food
/// }
/// ```
///
/// - **Making one**: as in ML Kit, ``objectDetector(options:)`` always returns a detector; a model that
///   cannot be used (missing, not a TFLite model, a classifier breaking the custom-model requirements, a
///   remote model not downloaded yet, no LiteRT runtime) is reported by every ``results(in:)`` and
///   `process` call. To find out at once, use the throwing initializer ``init(options:)`` (LiteVision
///   addition) or read ``loadError``. The detector takes a copy of the options: changing them afterwards has no
///   effect on it. Equal options give the same detector, so that ML Kit's per-frame pattern (fresh options and
///   `objectDetector(options:)` on every frame) keeps tracking; see ``objectDetector(options:)``.
/// - **Detector**: Google's class-agnostic Mobile Object Localizer (the public model closest to ML Kit's
///   own), found as described in <doc:Models>, or your SSD detector
///   (``CommonObjectDetectorOptions/detectorModel``), whose class of each object is its
///   ``DetectedObject/detectorLabel`` (``DetectedObject/labels`` hold only the classification's labels, and
///   are empty with classification off, as in ML Kit).
/// - **Multiple objects off**: the most prominent object only: score × √(box area ÷ image area) ×
///   (1 − 0.5 × distance from the center ÷ half the diagonal), so confident, large, central objects win.
///   On: up to ``CommonObjectDetectorOptions/maximumObjectCount`` objects, highest score first.
/// - **Stream mode**: every frame goes through a multi-object tracker (Kalman motion model, two-stage
///   ByteTrack-style association that keeps IDs through short misses and low-score frames; a new ID for an
///   object that left the image and came back). Objects are classified when they appear and then every
///   ``CommonObjectDetectorOptions/classificationInterval`` frames; the first frames of an object may have no
///   label, as in ML Kit. Frames may come from several threads: the tracker sees them one at a time, in the
///   order they reach it.
/// - **Smoothed labels (stream mode)**: so that labels do not flicker, an object's confidence for each class
///   is an exponential moving average over its classifications so far (weight 0.4 for the newest, 0.6 for the
///   history; a class missing from a classification counts as 0; corrected for the start, so that the first
///   classification's confidences come back unchanged). The labels returned are those whose smoothed
///   confidence reaches ``CustomObjectDetectorOptions/classificationConfidenceThreshold``, highest smoothed
///   confidence first, at most ``CustomObjectDetectorOptions/maxPerObjectLabelCount`` — ML Kit's rules,
///   applied to the smoothed confidences.
/// - **Single-image mode**: no tracking IDs; every object is classified, its labels are the classifier's.
///
/// A detector is `Sendable`; detection and classification of concurrent calls run in parallel.
public final class ObjectDetector: Sendable {
    /// The loaded models and the stream session, or why the models could not be loaded.
    let loaded: LoadedEngine<DetectionEngine>

    /// A detector with the built-in model and ML Kit's default options (stream mode, the most prominent
    /// object, no classification).
    public static func objectDetector() -> ObjectDetector {
        objectDetector(options: ObjectDetectorOptions())
    }

    /// A detector for `options`: ``ObjectDetectorOptions`` (built-in detector and categories) or
    /// ``CustomObjectDetectorOptions`` (your classifier). A model that cannot be used is reported by
    /// ``results(in:)`` and `process` (and ``loadError``).
    ///
    /// Equal options give the same detector, as in ML Kit, whose samples make fresh options and call this on
    /// every camera frame: the models load once, and stream mode keeps tracking the same objects with the same
    /// IDs. Options are equal when every setting is, the models included: the same files, unchanged on disk (a
    /// model file edited or replaced, or a remote model updated by a download, gives a new detector). A detector
    /// is found again while anyone holds it, and the four detectors most recently returned stay alive even when
    /// nobody does. A detector whose models could not be loaded is not kept: the next call tries again.
    /// Different options give independent detectors; for an independent detector with equal options (say, one
    /// per camera), use ``init(options:)``.
    public static func objectDetector(options: CommonObjectDetectorOptions) -> ObjectDetector {
        let configuration = options.configuration
        return shared.feature(
            for: configuration, files: configuration.modelFileIdentities,
            make: { ObjectDetector(configuration: configuration) }, keep: { $0.loadError == nil })
    }

    /// The detectors ``objectDetector(options:)`` hands out, by their options.
    static let shared = FeatureCache<DetectorConfiguration, ObjectDetector>(recentLimit: 4)

    /// A new detector for `options`, loading its models now (LiteVision addition): unlike
    /// ``objectDetector(options:)``, never one shared with other callers.
    /// - Throws: ``VisionError`` when a model is missing, cannot be downloaded, is not a TFLite model, breaks
    ///   the requirements, or the LiteRT runtime cannot be loaded.
    public convenience init(options: CommonObjectDetectorOptions) throws(VisionError) {
        self.init(configuration: options.configuration)
        if let error = loaded.loadError { throw error }
    }

    /// A detector for `options` in stream mode, whatever their ``CommonObjectDetectorOptions/detectorMode``,
    /// loading its models now: a `VideoPipeline`'s detectors, which track.
    package convenience init(streamingWith options: CommonObjectDetectorOptions) throws(VisionError) {
        var configuration = options.configuration
        configuration.detectorMode = .stream
        self.init(configuration: configuration)
        if let error = loaded.loadError { throw error }
    }

    init(configuration: DetectorConfiguration) {
        loaded = LoadedEngine { () throws(VisionError) in try DetectionEngine(configuration) }
    }

    /// Why the models could not be loaded, or `nil` when the detector is ready (LiteVision addition).
    public var loadError: VisionError? { loaded.loadError }

    /// Detects (and, in stream mode, tracks) the objects in `image` synchronously.
    /// - Throws: ``VisionError``: the image cannot be decoded, inference failed, or the models could not be
    ///   loaded.
    public func results(in image: VisionImage) throws(VisionError) -> [Object] {
        try loaded.results(in: image)
    }

    /// Detects and tracks the objects of a video frame taken at `timestamp` seconds (LiteVision addition, like
    /// MediaPipe's `detectForVideo`, but in seconds, not milliseconds): the same as ``results(in:)``, and in stream
    /// mode the timestamps measure the rate at which the tracker sees frames, for its rules under 20 frames per
    /// second (``TrackingOptions/frameRate``) — a 10 fps camera, or a 30 fps one whose frames the detector can take
    /// only one in three of. The rate is the mean of the middle 20 of the last 30 intervals (gaps of over 2 seconds
    /// left out), so it follows a source that drops more frames as the machine gets busy, and near 20 fps it keeps
    /// its side until it passes 16.7 or 24 fps, so that the rules do not switch every few frames. Give the times the
    /// frames were taken (a `VideoFrame`'s `timestamp`: frames dropped before detection leave their gap). A timestamp
    /// equal to the last or a little earlier (frames handed over slightly out of order) is not measured; one more
    /// than 2 seconds earlier (another video) starts the measure anew, as does ``resetTracking()``. A `frameRate` set
    /// in the options wins, and in single image mode the timestamp is not used. `VideoPipeline` calls this for every
    /// frame.
    /// - Throws: As ``results(in:)``.
    public func results(in image: VisionImage, timestamp: Double) throws(VisionError) -> [Object] {
        try loaded.outcome.get().results(in: image, timestamp: timestamp)
    }

    /// Forgets every track (stream mode), as at the start of a new video: the next objects get new IDs (IDs
    /// are never reused by a detector).
    public func resetTracking() {
        loaded.engine?.resetTracking()
    }

    /// Detects objects in `image` without blocking the caller.
    @concurrent
    public func process(_ image: VisionImage) async throws(VisionError) -> [Object] {
        try results(in: image)
    }

    /// Detects objects in the background and calls `completion` with the objects or the error, as ML Kit's
    /// `process(_:completion:)`.
    ///
    /// - Parameters:
    ///   - image: The image to process.
    ///   - queue: Where `completion` runs: by default (`nil`), as in ML Kit, on the main queue when the
    ///     program services it, else on a background queue so that waiting for it never deadlocks — the rules
    ///     of ``ImageLabeler``'s `process(_:queue:completion:)`. Pass a queue to choose.
    ///   - completion: Called once with the objects, or `nil` and the error.
    public func process(
        _ image: VisionImage, queue: DispatchQueue? = nil,
        completion: @escaping @Sendable ([Object]?, VisionError?) -> Void
    ) {
        loaded.process(image, queue: queue, completion: completion)
    }

    /// Detects objects in the background and calls `completion` with the objects (empty on error) and the
    /// error, for code that reads the objects without unwrapping them (`guard !objects.isEmpty`). Swift picks
    /// this form only when the completion's body needs a non-optional array; it calls back as the other
    /// `process(_:queue:completion:)`.
    @_disfavoredOverload
    public func process(
        _ image: VisionImage, queue: DispatchQueue? = nil,
        completion: @escaping @Sendable ([Object], VisionError?) -> Void
    ) {
        loaded.processUnwrapped(image, queue: queue, completion: completion)
    }
}
