/// One label an ``ImageLabeler`` found in an image, as ML Kit's `ImageLabel`.
public struct ImageLabel: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The label's text from the model's label map; empty when the model has no labels.
    public let text: String
    /// How confident the model is, from 0 to 1 for probability outputs.
    public let confidence: Float
    /// The index of the class in the model's output.
    public let index: Int

    /// A label; results come from ``ImageLabeler``, this is for tests and custom pipelines.
    public init(text: String, confidence: Float, index: Int) {
        self.text = text
        self.confidence = confidence
        self.index = index
    }

    public var description: String {
        "\(index) \(text.isEmpty ? "(no text)" : text): \(confidence)"
    }
}
