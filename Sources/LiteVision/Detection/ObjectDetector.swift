import Dispatch
import LiteRT
import LiteVisionGeometry
import LiteVisionImaging
import LiteVisionModelStore
import LiteVisionTracking
import Synchronization

/// Detects objects in images and video frames, tracks them across frames and optionally classifies them,
/// as ML Kit's `ObjectDetector`.
///
/// ```swift
/// var options = ObjectDetectorOptions()
/// options.detectorMode = .singleImage
/// options.shouldEnableMultipleObjects = true
/// options.shouldEnableClassification = true
/// let detector = try ObjectDetector.objectDetector(options: options)
/// for object in try detector.results(in: try VisionImage(contentsOfFile: "burger.jpg")) {
///     print(object.frame, object.labels.first?.text ?? "-")      // (…) Food
/// }
/// ```
///
/// - **Detector**: Google's class-agnostic Mobile Object Localizer (the public model closest to ML Kit's
///   own), found as described in ``BuiltInModel``, or your SSD detector (``ObjectDetectorOptions/detectorModel``).
/// - **Multiple objects off**: the most prominent object only: score × √(box area ÷ image area) ×
///   (1 − 0.5 × distance from the center ÷ half the diagonal), so confident, large, central objects win.
///   On: up to ``ObjectDetectorOptions/maximumObjectCount`` objects, highest score first.
/// - **Stream mode**: every frame goes through a multi-object tracker (Kalman motion model, two-stage
///   ByteTrack-style association that keeps IDs through short misses and low-score frames; a new ID for an
///   object that left the image and came back). Objects are classified when they appear and then every
///   ``ObjectDetectorOptions/classificationInterval`` frames, and their labels are smoothed per track, so
///   they do not flicker; the first frames of an object may have no label, as in ML Kit.
///   Frames may come from several threads: the tracker sees them one at a time, in the order they reach it.
/// - **Single-image mode**: no tracking IDs; every object is classified.
///
/// A detector is `Sendable`; detection and classification of concurrent calls run in parallel.
public final class ObjectDetector: Sendable {
    /// The settings in effect.
    public let options: ObjectDetectorOptions
    let detector: DetectorModel
    let classification: ObjectClassification?
    /// The labels per object at most: the custom options' count, 1 for the coarse categories.
    let maxLabels: Int
    /// The tracker's settings, derived once from the options.
    let trackerOptions: TrackerOptions
    let session: Mutex<StreamSession>

    /// A detector with the built-in model and the base options.
    public static func objectDetector(options: ObjectDetectorOptions) throws(VisionError) -> ObjectDetector {
        try ObjectDetector(options: options, custom: nil)
    }

    /// A detector classifying objects with your model.
    public static func objectDetector(options: CustomObjectDetectorOptions) throws(VisionError) -> ObjectDetector {
        try ObjectDetector(options: options.common, custom: options)
    }

    init(options: ObjectDetectorOptions, custom: CustomObjectDetectorOptions?) throws(VisionError) {
        self.options = options
        let settings = options.processing
        Runtime.startLoading(libraryPath: settings.runtimeLibraryPath)
        let detectorModel: LocalModel
        if let custom = options.detectorModel {
            detectorModel = custom
        } else {
            detectorModel = LocalModel(path: try Self.builtIn(.objectLocalizer, options))
        }
        detector = try DetectorModel(
            try Self.resolve(.local(detectorModel)), settings: settings,
            layout: options.detectorOutputLayout, labelOffset: options.detectorLabelOffset)
        if let custom, options.shouldEnableClassification {
            let classifier = try ClassifierModel(try Self.resolve(custom.classifier), settings: settings)
            let filter = LabelFilter(
                threshold: custom.classificationConfidenceThreshold,
                maxCount: custom.maxPerObjectLabelCount, metadataThreshold: classifier.metadataThreshold)
            classification = ObjectClassification(classifier: classifier, kind: .custom(filter))
            maxLabels = filter.maxCount
        } else if options.shouldEnableClassification {
            let labeler = LocalModel(path: try Self.builtIn(.objectLabeler, options))
            classification = ObjectClassification(
                classifier: try ClassifierModel(try Self.resolve(.local(labeler)), settings: settings),
                kind: .coarse)
            maxLabels = 1
        } else {
            classification = nil
            maxLabels = 0
        }
        trackerOptions = options.tracking.trackerOptions(detectionThreshold: options.detectionThreshold)
        session = Mutex(StreamSession(options: trackerOptions))
    }

    private static func resolve(_ model: ModelReference) throws(VisionError) -> ResolvedModel {
        do {
            return try model.resolve()
        } catch {
            throw VisionError(error)
        }
    }

    private static func builtIn(_ model: BuiltInModel, _ options: ObjectDetectorOptions) throws(VisionError) -> String {
        do {
            return try ModelCatalog.path(
                of: model, modelDirectory: options.modelDirectory,
                allowDownload: options.allowsModelDownload)
        } catch {
            throw VisionError(error)
        }
    }

    /// The labels of the detector's classes, when it has more than one (a class-agnostic detector has none).
    var detectorLabels: [String]? {
        guard let labels = detector.labels, labels.count > 1 else { return nil }
        return labels
    }

    /// Detects (and, in stream mode, tracks) the objects in `image` synchronously.
    public func results(in image: VisionImage) throws(VisionError) -> [DetectedObject] {
        let oriented = try image.oriented(
            forInputWidth: detector.model.input.width, height: detector.model.input.height,
            scale: options.processing.decodingScale)
        switch options.detectorMode {
        case .singleImage:
            let found = try detector.detect(oriented, minimumScore: options.detectionThreshold)
            let chosen = select(found.map { ($0.box, $0.score) }, in: oriented, previous: nil)
            return try chosen.map { index throws(VisionError) in
                let detection = found[index]
                return DetectedObject(
                    frame: detection.box, trackingID: nil,
                    labels: try labels(of: detection, in: oriented),
                    detectionConfidence: detection.score)
            }
        case .stream:
            let found = try detector.detect(oriented, minimumScore: trackerOptions.lowScoreThreshold)
            return try track(found, in: oriented)
        }
    }

    /// Indices of the objects to report among `candidates` (sorted by score, highest first).
    private func select(
        _ candidates: [(box: BoundingBox, score: Float)], in image: OrientedImage,
        previous: Int?
    ) -> [Int] {
        if options.shouldEnableMultipleObjects {
            return Array(candidates.indices.prefix(max(1, options.maximumObjectCount)))
        }
        return Prominence.pick(
            candidates, imageWidth: Double(image.resultSize.width), imageHeight: Double(image.resultSize.height),
            previous: previous
        ).map { [$0] } ?? []
    }

    /// The detector's own class of a detection, as a label, for detectors with classes.
    private func detectorLabel(classIndex: Int?, score: Float) -> ObjectLabel? {
        guard let names = detectorLabels, let index = classIndex, names.indices.contains(index) else { return nil }
        return ObjectLabel(text: names[index], confidence: score, index: index)
    }

    /// The labels of one detection: the detector's class (for detectors with classes), then the classifier's.
    private func labels(of detection: RawDetection, in image: OrientedImage) throws(VisionError) -> [ObjectLabel] {
        var labels = detectorLabel(classIndex: detection.classIndex, score: detection.score).map { [$0] } ?? []
        if let classification {
            labels += try classification.labels(of: detection.box, in: image)
        }
        return labels
    }

    private func track(_ found: [RawDetection], in image: OrientedImage) throws(VisionError) -> [DetectedObject] {
        // Under the lock: the tracker, the choice of objects, and which of them to classify now.
        let interval = max(1, options.classificationInterval)
        let detections = found.map {
            TrackerDetection(box: $0.box, score: $0.score, classIndex: detectorLabels == nil ? nil : $0.classIndex)
        }
        let (reported, due, frame) = session.withLock { session -> ([Track], [Track], Int) in
            let tracks = session.track(
                detections, imageWidth: image.resultSize.width, imageHeight: image.resultSize.height)
            let previous = session.lastReported.flatMap { id in tracks.firstIndex { $0.id == id } }
            let chosen = select(tracks.map { ($0.box, $0.score) }, in: image, previous: previous).map { tracks[$0] }
            if !options.shouldEnableMultipleObjects { session.lastReported = chosen.first?.id }
            let due = classification == nil ? [] : chosen.filter { session.isDue($0.id, interval: interval) }
            return (chosen, due, session.frame)
        }
        // Outside the lock: classify the objects that are due, then merge their labels in.
        var fresh: [(id: Int, labels: [ObjectLabel])] = []
        for track in due {
            fresh.append(
                (track.id, try labels(of: RawDetection(box: track.box, score: track.score, classIndex: nil), in: image))
            )
        }
        let limit = maxLabels
        let smoothed = session.withLock { session -> [[ObjectLabel]] in
            for (id, labels) in fresh { session.record(labels, for: id, classifiedFrame: frame, limit: limit) }
            return reported.map { session.labels(of: $0.id) }
        }
        return zip(reported, smoothed).map { track, smoothed in
            let own = detectorLabel(classIndex: track.classIndex, score: track.score).map { [$0] } ?? []
            return DetectedObject(
                frame: track.box, trackingID: track.id, labels: own + smoothed,
                detectionConfidence: track.score)
        }
    }

    /// Forgets every track (stream mode), as at the start of a new video: the next objects get new IDs (IDs
    /// are never reused by a detector).
    public func resetTracking() {
        session.withLock { $0.reset() }
    }

    /// Detects objects in `image` without blocking the caller.
    @concurrent
    public func process(_ image: VisionImage) async throws(VisionError) -> [DetectedObject] {
        try results(in: image)
    }

    /// Detects objects in the background and calls `completion` on `queue` (see ``ImageLabeler`` for why
    /// LiteVision does not default to the main queue).
    public func process(
        _ image: VisionImage, queue: DispatchQueue = .global(qos: .userInitiated),
        completion: @escaping @Sendable ([DetectedObject]?, VisionError?) -> Void
    ) {
        runInBackground(on: queue, { () throws(VisionError) in try self.results(in: image) }, completion: completion)
    }
}
