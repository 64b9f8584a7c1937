import LiteVisionTracking

/// What an ``ObjectDetector`` remembers between frames in stream mode, behind its lock: the tracker, the
/// labels smoothed per track, when each track was last classified, and which object it returned last.
struct StreamState: Sendable {
    var tracker: ObjectTracker
    var smoother = LabelSmoother()
    /// Frame number of each live track's last classification.
    var lastClassified: [Int: Int] = [:]
    /// The smoothed labels of each live track.
    var labels: [Int: [ObjectLabel]] = [:]
    var frame = 0
    /// The track returned last time with multiple objects off.
    var lastReported: Int?

    init(options: TrackerOptions) {
        tracker = ObjectTracker(options: options)
    }

    /// Forgets every track; the tracker keeps counting IDs, so none is reused.
    mutating func reset() {
        tracker.reset()
        smoother = LabelSmoother()
        lastClassified = [:]
        labels = [:]
        lastReported = nil
    }

    /// Merges fresh labels of `trackID` into its smoothed labels.
    mutating func record(_ fresh: [ObjectLabel], for trackID: Int, frame: Int, limit: Int) {
        lastClassified[trackID] = frame
        let smoothed = smoother.update(trackID: trackID, labels: fresh.map {
            LabelSmoother.Label(index: $0.index, text: $0.text, confidence: $0.confidence)
        })
        labels[trackID] = smoothed.prefix(limit).map { ObjectLabel(text: $0.text, index: $0.index, confidence: $0.confidence) }
    }

    /// Forgets the labels of the tracks the tracker has dropped (gone out of the image, or lost for longer than
    /// its buffer). Nothing to do, and no work, when no object has been classified.
    mutating func forgetEndedTracks() {
        guard !lastClassified.isEmpty else { return }
        let live = Set(tracker.liveTracks.map(\.id))
        guard lastClassified.keys.contains(where: { !live.contains($0) }) else { return }
        smoother.forget(keeping: live)
        lastClassified = lastClassified.filter { live.contains($0.key) }
        labels = labels.filter { live.contains($0.key) }
    }
}
