/// Which of a classifier's scores become labels, for the labeler and for classified objects alike: those at
/// or above a confidence threshold, at most a count, highest first (ties: lower index first).
///
/// ML Kit's fallback rule for the options, in one place: a threshold that is unset or outside 0...1 (or not a
/// number) becomes the model metadata's score threshold, else 0; a count that is unset or below 1 becomes 10.
struct LabelFilter: Sendable, Equatable {
    /// The count used when the option is unset or invalid.
    static let defaultMaxCount = 10

    let threshold: Float
    let maxCount: Int

    init(threshold: Float?, maxCount: Int?, metadataThreshold: Float?) {
        if let threshold, (0...1).contains(threshold) {
            self.threshold = threshold
        } else {
            self.threshold = metadataThreshold ?? 0
        }
        if let maxCount, maxCount > 0 {
            self.maxCount = maxCount
        } else {
            self.maxCount = Self.defaultMaxCount
        }
    }

    /// The selected `(index, score)` pairs of `scores`.
    func select(_ scores: UnsafeBufferPointer<Float>) -> [(index: Int, score: Float)] {
        TopScores.select(scores, threshold: threshold, limit: maxCount)
    }

}
