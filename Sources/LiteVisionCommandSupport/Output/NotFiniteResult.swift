/// A result that JSON cannot hold: a box, score or confidence that is infinite or NaN, which only a model's own
/// output gives (a model whose scores overflow). `label --json` and `detect --json` count the photo as failed, with
/// an error record; `track --json` writes the frame's record with this message as its `error`.
package struct NotFiniteResult: Error, CustomStringConvertible {
    /// What was not finite: "a box, score or label confidence" of objects, "a label confidence" of labels.
    package let what: String

    /// Objects' numbers (``DetectOutput``'s records).
    package static let objects = NotFiniteResult(what: "a box, score or label confidence")
    /// Labels' confidences (``LabelOutput``'s records).
    package static let labels = NotFiniteResult(what: "a label confidence")

    /// The message: what the model gave, and why it cannot be written.
    package var description: String {
        "the model gave \(what) that is not finite (infinity or NaN), which JSON cannot hold"
    }
}
