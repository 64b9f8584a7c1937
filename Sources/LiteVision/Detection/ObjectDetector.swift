import Dispatch
import LiteVisionImaging
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
///   own), found through ``ModelCatalog``, or your SSD detector (``ObjectDetectorOptions/detectorModel``).
/// - **Multiple objects off**: the most prominent object only (see ``Prominence``: confident, large, central).
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
    let maxLabels: Int
    let state: Mutex<StreamState>

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
        let detectorLocal: LocalModel
        if let model = options.detectorModel {
            detectorLocal = model
        } else {
            detectorLocal = LocalModel(path: try ModelCatalog.path(of: .objectLocalizer, modelDirectory: options.modelDirectory,
                                                                   allowDownload: options.allowsModelDownload))
        }
        detector = try DetectorModel(detectorLocal, threadCount: options.threadCount,
                                     runtimeLibraryPath: options.runtimeLibraryPath,
                                     layout: options.detectorOutputLayout, labelOffset: options.detectorLabelOffset)
        if let custom, options.shouldEnableClassification {
            let classifier = try ClassifierModel(custom.localModel, threadCount: options.threadCount,
                                                 runtimeLibraryPath: options.runtimeLibraryPath)
            let threshold = custom.classificationConfidenceThreshold.flatMap { (0...1).contains($0) ? $0 : nil }
                ?? classifier.metadataThreshold ?? 0
            let limit = custom.maxPerObjectLabelCount > 0 ? custom.maxPerObjectLabelCount : 10
            classification = ObjectClassification(classifier: classifier, kind: .custom(threshold: threshold, maxLabels: limit))
            maxLabels = limit
        } else if options.shouldEnableClassification {
            let labeler = LocalModel(path: try ModelCatalog.path(of: .objectLabeler, modelDirectory: options.modelDirectory,
                                                                  allowDownload: options.allowsModelDownload))
            let classifier = try ClassifierModel(labeler, threadCount: options.threadCount,
                                                 runtimeLibraryPath: options.runtimeLibraryPath)
            classification = ObjectClassification(classifier: classifier, kind: .coarse)
            maxLabels = 1
        } else {
            classification = nil
            maxLabels = 0
        }
        // The detection threshold is what counts as an object: it starts tracks and leads the first association
        // stage; weaker detections can only keep existing tracks alive (ByteTrack's second stage).
        var trackerOptions = options.tracker
        trackerOptions.newTrackThreshold = options.detectionThreshold
        trackerOptions.highScoreThreshold = options.detectionThreshold
        trackerOptions.lowScoreThreshold = min(trackerOptions.lowScoreThreshold, options.detectionThreshold)
        state = Mutex(StreamState(options: trackerOptions))
    }

    /// The labels of the detector's classes, when it has more than one (a class-agnostic detector has none).
    var detectorLabels: [String]? {
        guard let labels = detector.labels, labels.count > 1 else { return nil }
        return labels
    }

    /// Detects (and, in stream mode, tracks) the objects in `image` synchronously.
    public func results(in image: VisionImage) throws(VisionError) -> [DetectedObject] {
        let pixels = try image.pixels(forInputWidth: detector.model.inputWidth, height: detector.model.inputHeight,
                                      scale: options.decodingScale)
        let orientation = image.orientation
        let width = Double(orientation.swapsDimensions ? pixels.height : pixels.width)
        let height = Double(orientation.swapsDimensions ? pixels.width : pixels.height)
        switch options.detectorMode {
        case .singleImage:
            let found = try detector.detect(pixels, orientation: orientation, minimumScore: options.detectionThreshold)
            let chosen = select(found.map { ($0.box, $0.score) }, width: width, height: height, previous: nil)
            return try chosen.map { index throws(VisionError) in
                let detection = found[index]
                return DetectedObject(frame: detection.box, trackingID: nil,
                                      labels: try labels(of: detection, in: pixels, orientation: orientation),
                                      detectionConfidence: detection.score)
            }
        case .stream:
            let minimum = min(options.tracker.lowScoreThreshold, options.detectionThreshold)
            let found = try detector.detect(pixels, orientation: orientation, minimumScore: minimum)
            return try track(found, pixels: pixels, orientation: orientation, width: width, height: height)
        }
    }

    /// Indices of the objects to report among `candidates` (sorted by score, highest first).
    private func select(_ candidates: [(box: BoundingBox, score: Float)], width: Double, height: Double,
                        previous: Int?) -> [Int] {
        if options.shouldEnableMultipleObjects {
            return Array(candidates.indices.prefix(max(1, options.maximumObjectCount)))
        }
        return Prominence.pick(candidates, imageWidth: width, imageHeight: height, previous: previous).map { [$0] } ?? []
    }

    /// The labels of one detection: the detector's class (for detectors with classes), then the classifier's.
    private func labels(of detection: RawDetection, in pixels: ImageBuffer,
                        orientation: ImageOrientation) throws(VisionError) -> [ObjectLabel] {
        var labels: [ObjectLabel] = []
        if let names = detectorLabels, let index = detection.classIndex, names.indices.contains(index) {
            labels.append(ObjectLabel(text: names[index], index: index, confidence: detection.score))
        }
        if let classification {
            labels += try classification.labels(of: detection.box, in: pixels, orientation: orientation)
        }
        return labels
    }

    private func track(_ found: [RawDetection], pixels: ImageBuffer, orientation: ImageOrientation,
                       width: Double, height: Double) throws(VisionError) -> [DetectedObject] {
        // Under the lock: the tracker, the choice of objects, and which of them to classify now.
        let interval = max(1, options.classificationInterval)
        let (reported, toClassify, frame) = state.withLock { state -> ([Track], [Track], Int) in
            state.frame += 1
            let tracks = state.tracker.update(found.map {
                TrackerDetection(box: $0.box, score: $0.score, classIndex: detectorLabels == nil ? nil : $0.classIndex)
            }, imageWidth: Int(width.rounded()), imageHeight: Int(height.rounded()))
            state.forgetEndedTracks()
            let ordered = tracks.sorted { $0.score > $1.score }
            let previous = state.lastReported.flatMap { id in ordered.firstIndex { $0.id == id } }
            let chosen = select(ordered.map { ($0.box, $0.score) }, width: width, height: height, previous: previous)
                .map { ordered[$0] }
            if !options.shouldEnableMultipleObjects { state.lastReported = chosen.first?.id }
            let due = classification == nil ? [] : chosen.filter { track in
                state.lastClassified[track.id].map { state.frame - $0 >= interval } ?? true
            }
            return (chosen, due, state.frame)
        }
        // Outside the lock: classify the objects that are due, then merge their labels in.
        var fresh: [(Int, [ObjectLabel])] = []
        for track in toClassify {
            let detection = RawDetection(box: track.box, score: track.score, classIndex: nil)
            fresh.append((track.id, try labels(of: detection, in: pixels, orientation: orientation)))
        }
        let limit = maxLabels
        let smoothed = state.withLock { state -> [Int: [ObjectLabel]] in
            for (id, labels) in fresh { state.record(labels, for: id, frame: frame, limit: limit) }
            return state.labels
        }
        return reported.map { track in
            var labels: [ObjectLabel] = []
            if let names = detectorLabels, let index = track.classIndex, names.indices.contains(index) {
                labels.append(ObjectLabel(text: names[index], index: index, confidence: track.score))
            }
            labels += smoothed[track.id] ?? []
            return DetectedObject(frame: track.box, trackingID: track.id, labels: labels, detectionConfidence: track.score)
        }
    }

    /// Forgets every track (stream mode), as at the start of a new video: the next objects get new IDs (IDs
    /// are never reused by a detector).
    public func resetTracking() {
        state.withLock { $0.reset() }
    }

    /// Detects objects in `image` without blocking the caller.
    @concurrent
    public func process(_ image: VisionImage) async throws(VisionError) -> [DetectedObject] {
        try results(in: image)
    }

    /// Detects objects in the background and calls `completion` on `queue` (see ``ImageLabeler`` for why
    /// LiteVision does not default to the main queue).
    public func process(_ image: VisionImage, queue: DispatchQueue = .global(qos: .userInitiated),
                        completion: @escaping @Sendable ([DetectedObject]?, VisionError?) -> Void) {
        runInBackground(on: queue, { () throws(VisionError) in try self.results(in: image) }, completion: completion)
    }
}
