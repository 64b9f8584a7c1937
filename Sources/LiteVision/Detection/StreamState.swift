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
    /// The last frame each track was seen in (tracks unseen for longer than the track buffer are forgotten).
    var lastSeen: [Int: Int] = [:]

    init(options: TrackerOptions) {
        tracker = ObjectTracker(options: options)
    }

    /// Forgets every track; the tracker keeps counting IDs, so none is reused.
    mutating func reset() {
        tracker.reset()
        smoother = LabelSmoother()
        lastClassified = [:]
        labels = [:]
        lastSeen = [:]
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

    /// Notes the tracks seen in this frame and forgets those unseen for longer than `buffer` frames (the
    /// tracker has dropped them by then).
    mutating func see(_ trackIDs: [Int], buffer: Int) {
        for id in trackIDs { lastSeen[id] = frame }
        let live = Set(lastSeen.filter { frame - $0.value <= buffer + 1 }.keys)
        guard live.count != lastSeen.count else { return }
        lastSeen = lastSeen.filter { live.contains($0.key) }
        smoother.forget(keeping: live)
        lastClassified = lastClassified.filter { live.contains($0.key) }
        labels = labels.filter { live.contains($0.key) }
    }
}
