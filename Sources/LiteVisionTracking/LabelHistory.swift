/// What a ``LabelSmoother`` remembers about one track's labels.
package struct LabelHistory: Sendable {
    /// An empty history: the object has not been classified yet.
    package init() {}

    /// One class seen on the track.
    struct Entry: Sendable {
        /// The class index.
        var index: Int
        /// The class text, as last given.
        var text: String
        /// The exponential moving average of its confidence, before bias correction.
        var average: Float
    }

    /// The classes seen, in order of first appearance.
    var entries: [Entry] = []
    /// `decay` to the power of the number of updates so far (for the bias correction of the average).
    var decayPower: Float = 1
    /// The label currently reported first.
    var topIndex: Int?
    /// The label currently beating the top one.
    var challengerIndex: Int?
    /// For how many consecutive updates the challenger has been beating the top label.
    var challengerStreak = 0
}
