/// What the tracker knows of a label: the shape every LiteVision label type has (`ImageLabel`, `ObjectLabel`),
/// so that labels are smoothed as they are, without conversion.
package protocol ClassLabel: Sendable {
    /// The label's text.
    var text: String { get }
    /// The confidence, 0...1.
    var confidence: Float { get }
    /// The class's index in the classifier's output.
    var index: Int { get }
    init(text: String, confidence: Float, index: Int)
}
