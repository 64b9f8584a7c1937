import LiteRT
import LiteVisionGeometry
import LiteVisionImaging
import LiteVisionModelStore
import LiteVisionTracking
import Synchronization

/// A loaded object detector: the models of an ``ObjectDetector`` whose models loaded, and its stream-mode
/// session (see ``ObjectDetector`` for what it does).
final class DetectionEngine: VisionEngine {
    /// The settings in effect (a copy of the options).
    let options: DetectorConfiguration
    let detector: DetectorModel
    let classification: ObjectClassification?
    /// The labels per object at most: the custom options' count, 1 for the coarse categories.
    let maxLabels: Int
    /// The lowest confidence of a label reported: the custom options' threshold (smoothed labels in stream
    /// mode are held to it too), 0 for the coarse categories (their own rule decides).
    let labelThreshold: Float
    /// The tracker's settings, derived once from the options.
    let trackingOptions: TrackingOptions
    let session: Mutex<StreamSession>

    init(_ options: DetectorConfiguration) throws(VisionError) {
        self.options = options
        let settings = options.processing
        // The runtime loads on another thread while the model files are read and checked.
        Runtime.startLoading(libraryPath: settings.runtimeLibraryPath)
        let detectorModel: LocalModel
        if let custom = options.detectorModel {
            detectorModel = custom
        } else {
            detectorModel = LocalModel(
                path: try BuiltInModel.objectLocalizer.path(
                    modelDirectory: options.modelDirectory, allowsDownload: options.allowsModelDownload))
        }
        detector = try DetectorModel(
            try Self.resolve(.local(detectorModel), options), settings: settings,
            layout: options.detectorOutputLayout, labelOffset: options.detectorLabelOffset)
        if let classifierModel = options.classifier, options.shouldEnableClassification {
            let classifier = try ClassifierModel(try Self.resolve(classifierModel, options), settings: settings)
            let filter = LabelFilter(
                threshold: options.classificationConfidenceThreshold?.floatValue,
                maxCount: options.maxPerObjectLabelCount, metadataThreshold: classifier.metadataThreshold)
            classification = ObjectClassification(classifier: classifier, kind: .custom(filter))
            maxLabels = filter.maxCount
            labelThreshold = filter.threshold
        } else if options.shouldEnableClassification {
            let labeler = LocalModel(
                path: try BuiltInModel.objectLabeler.path(
                    modelDirectory: options.modelDirectory, allowsDownload: options.allowsModelDownload))
            classification = ObjectClassification(
                classifier: try ClassifierModel(try Self.resolve(.local(labeler), options), settings: settings),
                kind: .coarse)
            maxLabels = 1
            labelThreshold = 0
        } else {
            classification = nil
            maxLabels = 0
            labelThreshold = 0
        }
        trackingOptions = options.tracking.resolved(detectionThreshold: options.detectionThreshold)
        session = Mutex(StreamSession(options: trackingOptions))
    }

    private static func resolve(
        _ model: ModelReference, _ options: DetectorConfiguration
    ) throws(VisionError) -> ResolvedModel {
        do {
            return try model.resolve(cache: ModelCache(folder: options.modelCacheFolder))
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
    func results(in image: VisionImage) throws(VisionError) -> [DetectedObject] {
        try results(in: image, timestamp: nil)
    }

    /// As ``results(in:)``; in stream mode the frame's `timestamp` (seconds), when given, measures the frame rate
    /// the tracker goes by (see ``ObjectDetector/results(in:timestamp:)``).
    func results(in image: VisionImage, timestamp: Double?) throws(VisionError) -> [DetectedObject] {
        let oriented = try image.oriented(
            forInputWidth: detector.model.input.width, height: detector.model.input.height,
            processing: options.processing)
        switch options.detectorMode {
        case .singleImage:
            let found = try detector.detect(oriented, minimumScore: options.detectionThreshold)
            let chosen = select(found.map { ($0.box, $0.score) }, in: oriented, previous: nil)
            let space = frameSpace(of: image, oriented)
            return try chosen.map { index throws(VisionError) in
                let detection = found[index]
                return DetectedObject(
                    frame: space.frame(of: detection.box), trackingID: nil,
                    labels: try classify(detection.box, in: oriented),
                    detectionConfidence: detection.score,
                    detectorLabel: detectorLabel(classIndex: detection.classIndex, score: detection.score))
            }
        case .stream:
            // The options are resolved (`resolved(detectionThreshold:)`): the rescue threshold is set.
            let found = try detector.detect(
                oriented, minimumScore: trackingOptions.rescueThreshold ?? TrackingOptions.detectorRescueThreshold)
            return try track(found, in: oriented, space: frameSpace(of: image, oriented), timestamp: timestamp)
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

    /// The classifier's labels of the object in `box` (none with classification off).
    private func classify(_ box: BoundingBox, in image: OrientedImage) throws(VisionError) -> [ObjectLabel] {
        guard let classification else { return [] }
        return try classification.labels(of: box, in: image)
    }

    /// Where the frames of `image`'s objects are reported: upright, or in the stored camera buffer with
    /// ``ObjectDetectorOptions/FrameCoordinates/cameraBuffer``.
    private func frameSpace(of image: VisionImage, _ oriented: OrientedImage) -> FrameSpace {
        guard options.frameCoordinates == .cameraBuffer, image.isCameraBuffer, oriented.orientation != .up else {
            return FrameSpace(orientation: nil, storedSize: oriented.storedSize)
        }
        return FrameSpace(orientation: oriented.orientation, storedSize: oriented.storedSize)
    }

    private func track(
        _ found: [RawDetection], in image: OrientedImage, space: FrameSpace, timestamp: Double?
    ) throws(VisionError) -> [DetectedObject] {
        // Under the lock: the tracker, the choice of objects, and which of them to classify now.
        let interval = max(1, options.classificationInterval)
        let detections = found.map {
            TrackerDetection(box: $0.box, score: $0.score, classIndex: detectorLabels == nil ? nil : $0.classIndex)
        }
        let (reported, due, frame) = session.withLock { session -> ([Track], [Track], Int) in
            let tracks = session.track(
                detections, imageWidth: image.resultSize.width, imageHeight: image.resultSize.height,
                timestamp: timestamp)
            let previous = session.lastReported.flatMap { id in tracks.firstIndex { $0.id == id } }
            let chosen = select(tracks.map { ($0.box, $0.score) }, in: image, previous: previous).map { tracks[$0] }
            if !options.shouldEnableMultipleObjects { session.lastReported = chosen.first?.id }
            let due = classification == nil ? [] : chosen.filter { session.isDue($0.id, interval: interval) }
            return (chosen, due, session.frame)
        }
        // Outside the lock: classify the objects that are due, then merge their labels in.
        var fresh: [(id: Int, labels: [ObjectLabel])] = []
        for track in due {
            fresh.append((track.id, try classify(track.box, in: image)))
        }
        let limit = maxLabels
        let threshold = labelThreshold
        let smoothed = session.withLock { session -> [[ObjectLabel]] in
            for (id, labels) in fresh { session.record(labels, for: id, classifiedFrame: frame) }
            return reported.map { session.labels(of: $0.id, threshold: threshold, limit: limit) }
        }
        return zip(reported, smoothed).map { track, smoothed in
            DetectedObject(
                frame: space.frame(of: track.box), trackingID: track.id, labels: smoothed,
                detectionConfidence: track.score,
                detectorLabel: detectorLabel(classIndex: track.classIndex, score: track.score))
        }
    }

    /// Forgets every track (stream mode), as at the start of a new video.
    func resetTracking() {
        session.withLock { $0.reset() }
    }
}

/// Turns upright boxes into the coordinate space the detector reports frames in.
private struct FrameSpace {
    /// The orientation that turned the stored pixels upright, when frames are reported in the stored pixels;
    /// `nil` for upright frames.
    let orientation: ImageOrientation?
    let storedSize: (width: Int, height: Int)

    /// The reported frame of the upright `box`.
    func frame(of box: BoundingBox) -> BoundingBox {
        guard let orientation else { return box }
        return orientation.mapToStored(rect: box, storedWidth: storedSize.width, storedHeight: storedSize.height)
    }
}
