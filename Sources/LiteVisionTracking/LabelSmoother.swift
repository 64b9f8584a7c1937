/// Smooths the labels of tracked objects over time, so that they do not flicker from frame to frame.
///
/// For each track, each class's confidence is averaged over time with an exponential moving average:
/// `average = decay × average + (1 − decay) × confidence`, a class missing from a frame counting as 0. The
/// average is bias-corrected (divided by `1 − decayⁿ` after `n` updates, as Adam does), so a track's first frame
/// gives back its labels unchanged and a young track is not dragged toward 0.
///
/// On top of the averages, the first label has hysteresis: another class takes first place only after beating
/// it by more than `switchMargin` in `switchFrames` consecutive updates. A label alternating between two
/// classes frame after frame therefore keeps a stable top label, while a real change (the new class winning
/// for several frames) switches after a few frames.
///
/// Call ``forget(keeping:)`` with the IDs still tracked so the smoother drops the others.
public struct LabelSmoother: Sendable {
    /// A label of a tracked object: the same fields as ML Kit's object label.
    public struct Label: Sendable, Equatable {
        /// The class index in the classifier's label map.
        public var index: Int
        /// The class name.
        public var text: String
        /// The confidence, `0...1`.
        public var confidence: Float

        /// A label from its parts.
        public init(index: Int, text: String, confidence: Float) {
            self.index = index
            self.text = text
            self.confidence = confidence
        }
    }

    /// The weight of the history in the moving average, `0..<1`: 0 disables smoothing; 0.6 (the default)
    /// gives the last frame 40 % of the weight and halves the influence of a frame in about 1.4 frames.
    public let decay: Float
    /// How much (in confidence) a challenger must beat the current first label by. Default 0.05.
    public let switchMargin: Float
    /// In how many consecutive updates a challenger must beat the first label before taking its place.
    /// Default 3; 1 switches as soon as the averages cross (by more than the margin).
    public let switchFrames: Int
    /// Smoothed labels under this confidence are dropped (and forgotten). Default 0.01.
    public let minimumConfidence: Float

    private var histories: [Int: LabelHistory] = [:]

    /// A smoother with the given settings (see the properties).
    public init(decay: Float = 0.6, switchMargin: Float = 0.05, switchFrames: Int = 3,
                minimumConfidence: Float = 0.01) {
        precondition(decay >= 0 && decay < 1, "LabelSmoother: decay must be in 0..<1")
        precondition(switchFrames >= 1, "LabelSmoother: switchFrames must be at least 1")
        self.decay = decay
        self.switchMargin = switchMargin
        self.switchFrames = switchFrames
        self.minimumConfidence = minimumConfidence
    }

    /// The number of tracks remembered.
    public var trackCount: Int { histories.count }

    /// Adds a frame's labels for a track and returns its smoothed labels: the stable first label, then the
    /// others by decreasing smoothed confidence. (The first label may have a lower smoothed confidence than
    /// the second for a few frames, while a challenger has not yet won for `switchFrames` updates.)
    /// - Parameters:
    ///   - trackID: the track's ID (for instance ``Track/id``).
    ///   - labels: the labels of this frame, in any order; if a class appears twice, the larger confidence counts.
    public mutating func update(trackID: Int, labels: [Label]) -> [Label] {
        var history = histories.removeValue(forKey: trackID) ?? LabelHistory()
        let result = update(&history, with: labels)
        if !history.entries.isEmpty { histories[trackID] = history }
        return result
    }

    /// Forgets every track whose ID is not in `liveTrackIDs` (tracks that ended).
    public mutating func forget(keeping liveTrackIDs: Set<Int>) {
        histories = histories.filter { liveTrackIDs.contains($0.key) }
    }

    /// Forgets every track.
    public mutating func reset() {
        histories.removeAll()
    }

    private func update(_ history: inout LabelHistory, with labels: [Label]) -> [Label] {
        history.decayPower *= decay
        let weight = 1 - decay
        for i in history.entries.indices { history.entries[i].average *= decay }
        // This frame's confidence per class: a class listed twice counts once, with its larger confidence.
        var frame: [Label] = []
        frame.reserveCapacity(labels.count)
        for label in labels where label.confidence.isFinite {
            let confidence = min(max(label.confidence, 0), 1)
            if let i = frame.firstIndex(where: { $0.index == label.index }) {
                if confidence > frame[i].confidence { frame[i] = Label(index: label.index, text: label.text, confidence: confidence) }
            } else {
                frame.append(Label(index: label.index, text: label.text, confidence: confidence))
            }
        }
        for label in frame {
            if let i = history.entries.firstIndex(where: { $0.index == label.index }) {
                history.entries[i].average += weight * label.confidence
                history.entries[i].text = label.text
            } else {
                history.entries.append(.init(index: label.index, text: label.text, average: weight * label.confidence))
            }
        }
        return rank(&history)
    }

    /// Drops faded classes, applies the hysteresis and orders the smoothed labels.
    private func rank(_ history: inout LabelHistory) -> [Label] {
        let correction = 1 - history.decayPower
        var smoothed = history.entries.map {
            Label(index: $0.index, text: $0.text, confidence: correction > 0 ? $0.average / correction : $0.average)
        }
        let kept = smoothed.map { $0.confidence >= minimumConfidence }
        history.entries = zip(history.entries, kept).filter(\.1).map(\.0)
        smoothed = smoothed.filter { $0.confidence >= minimumConfidence }
        smoothed.sort { $0.confidence != $1.confidence ? $0.confidence > $1.confidence : $0.index < $1.index }
        guard let leader = smoothed.first else {
            history.topIndex = nil
            history.challengerIndex = nil
            history.challengerStreak = 0
            return []
        }
        if let top = history.topIndex, let incumbent = smoothed.first(where: { $0.index == top }) {
            if leader.index != top, leader.confidence > incumbent.confidence + switchMargin {
                if history.challengerIndex == leader.index {
                    history.challengerStreak += 1
                } else {
                    history.challengerIndex = leader.index
                    history.challengerStreak = 1
                }
                if history.challengerStreak >= switchFrames {
                    history.topIndex = leader.index
                    history.challengerIndex = nil
                    history.challengerStreak = 0
                }
            } else {
                history.challengerIndex = nil
                history.challengerStreak = 0
            }
        } else {
            history.topIndex = leader.index
            history.challengerIndex = nil
            history.challengerStreak = 0
        }
        if let top = history.topIndex, let position = smoothed.firstIndex(where: { $0.index == top }), position > 0 {
            let label = smoothed.remove(at: position)
            smoothed.insert(label, at: 0)
        }
        return smoothed
    }
}
