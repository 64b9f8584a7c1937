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
/// The smoother holds only its settings; each tracked object keeps its own ``LabelHistory``.
package struct LabelSmoother: Sendable {
    /// The weight of the history in the moving average, `0..<1`: 0 disables smoothing; 0.6 (the default)
    /// gives the last frame 40 % of the weight and halves the influence of a frame in about 1.4 frames.
    package let decay: Float
    /// How much (in confidence) a challenger must beat the current first label by. Default 0.05.
    package let switchMargin: Float
    /// In how many consecutive updates a challenger must beat the first label before taking its place.
    /// Default 3; 1 switches as soon as the averages cross (by more than the margin).
    package let switchFrames: Int
    /// Smoothed labels under this confidence are dropped (and forgotten). Default 0.01.
    package let minimumConfidence: Float

    /// A smoother with the given settings (see the properties).
    package init(
        decay: Float = 0.6, switchMargin: Float = 0.05, switchFrames: Int = 3,
        minimumConfidence: Float = 0.01
    ) {
        precondition(decay >= 0 && decay < 1, "LabelSmoother: decay must be in 0..<1")
        precondition(switchFrames >= 1, "LabelSmoother: switchFrames must be at least 1")
        self.decay = decay
        self.switchMargin = switchMargin
        self.switchFrames = switchFrames
        self.minimumConfidence = minimumConfidence
    }

    /// Merges this frame's labels of one object into its `history` and returns its smoothed labels, highest
    /// first (the current top label first while a challenger has not yet beaten it long enough).
    package func update<Label: ClassLabel>(_ history: inout LabelHistory, with labels: [Label]) -> [Label] {
        // A history whose classes have all faded starts afresh, as a new track's does.
        if history.entries.isEmpty { history = LabelHistory() }
        history.decayPower *= decay
        let weight = 1 - decay
        for i in history.entries.indices { history.entries[i].average *= decay }
        // This frame's confidence per class: a class listed twice counts once, with its larger confidence.
        var frame: [Label] = []
        frame.reserveCapacity(labels.count)
        for label in labels where label.confidence.isFinite {
            let confidence = min(max(label.confidence, 0), 1)
            if let i = frame.firstIndex(where: { $0.index == label.index }) {
                if confidence > frame[i].confidence {
                    frame[i] = Label(text: label.text, confidence: confidence, index: label.index)
                }
            } else {
                frame.append(Label(text: label.text, confidence: confidence, index: label.index))
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
    private func rank<Label: ClassLabel>(_ history: inout LabelHistory) -> [Label] {
        let correction = 1 - history.decayPower
        var smoothed = history.entries.map {
            Label(text: $0.text, confidence: correction > 0 ? $0.average / correction : $0.average, index: $0.index)
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
