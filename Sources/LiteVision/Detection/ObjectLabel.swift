import LiteVisionTracking

/// One label of a detected object, as ML Kit's `ObjectLabel`.
public struct ObjectLabel: Sendable, Hashable, Codable, ClassLabel {
    /// The label's text ("Food", or your classifier's label).
    public let text: String
    /// The confidence, 0...1.
    public let confidence: Float
    /// The label's index (the coarse category's index, or your classifier's class).
    public let index: Int

    /// A label; results come from ``ObjectDetector``, this is for tests and custom pipelines. The same
    /// shape as ``ImageLabel``.
    public init(text: String, confidence: Float, index: Int) {
        self.text = text
        self.confidence = confidence
        self.index = index
    }
}
