import LiteVisionGeometry
import LiteVisionTracking

/// What an ``ObjectDetector`` remembers between frames in stream mode: the tracker, one record per tracked object
/// (its smoothed labels and when it was last classified), and the frame rate measured from the frames' timestamps.
/// The detector keeps it behind a lock.
struct StreamSession: Sendable {
    /// What is remembered of one tracked object.
    struct ObjectRecord: Sendable {
        /// The smoother's memory of the object's labels.
        var history = LabelHistory()
        /// The smoothed labels, as the smoother ranks them.
        var labels: [ObjectLabel] = []
        /// The frame of the last classification.
        var classifiedFrame: Int
    }

    private(set) var tracker: ObjectTracker
    private let smoother = LabelSmoother()
    private var records: [Int: ObjectRecord] = [:]
    /// Frames seen since the detector was made.
    private(set) var frame = 0
    /// The object returned last time with multiple objects off.
    var lastReported: Int?
    /// Measures the frame rate from the frames' timestamps; `nil` when the options give the rate.
    private var meter: FrameRateMeter?

    init(options: TrackingOptions) {
        tracker = ObjectTracker(options: options)
        meter = options.frameRate == nil ? FrameRateMeter() : nil
    }

    /// Tracks this frame's `detections` and returns the tracks, highest score first; forgets the records of objects the
    /// tracker no longer follows (not in its `liveTracks`). The frame's `timestamp` (seconds), when given, measures the
    /// frame rate the tracker goes by, unless the options give it.
    mutating func track(
        _ detections: [TrackerDetection], imageWidth: Int, imageHeight: Int, timestamp: Double? = nil
    ) -> [Track] {
        frame += 1
        if let timestamp, meter != nil { tracker.setFrameRate(meter!.add(timestamp)) }
        let tracks = tracker.update(detections, imageWidth: imageWidth, imageHeight: imageHeight)
        if !records.isEmpty {
            let live = Set(tracker.liveTracks.map(\.id))
            if records.keys.contains(where: { !live.contains($0) }) {
                records = records.filter { live.contains($0.key) }
            }
        }
        return tracks.sorted { $0.score > $1.score }
    }

    /// Whether the object `id` is due for classification: never classified, or `interval` frames ago.
    func isDue(_ id: Int, interval: Int) -> Bool {
        records[id].map { frame - $0.classifiedFrame >= interval } ?? true
    }

    /// Merges the fresh labels of object `id`, classified at `classifiedFrame`, into its smoothed labels.
    mutating func record(_ fresh: [ObjectLabel], for id: Int, classifiedFrame: Int) {
        var record = records[id] ?? ObjectRecord(classifiedFrame: classifiedFrame)
        record.classifiedFrame = classifiedFrame
        record.labels = smoother.update(&record.history, with: fresh)
        records[id] = record
    }

    /// The smoothed labels of object `id` as the detector reports them, with ML Kit's rules for labels: those
    /// whose smoothed confidence is at least `threshold`, highest first (ties: lower index first), at most
    /// `limit`. None before the object's first classification.
    func labels(of id: Int, threshold: Float, limit: Int) -> [ObjectLabel] {
        guard let smoothed = records[id]?.labels else { return [] }
        let kept = smoothed.filter { $0.confidence >= threshold }.sorted {
            $0.confidence != $1.confidence ? $0.confidence > $1.confidence : $0.index < $1.index
        }
        return Array(kept.prefix(limit))
    }

    /// Forgets every object and the measured frame rate; the tracker keeps counting IDs, so none is reused.
    mutating func reset() {
        tracker.reset()
        if meter != nil {
            meter = FrameRateMeter()
            tracker.setFrameRate(nil)
        }
        records = [:]
        lastReported = nil
    }
}
