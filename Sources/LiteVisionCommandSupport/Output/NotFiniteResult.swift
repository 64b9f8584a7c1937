/// A result that JSON cannot hold: a box, score or confidence that is infinite or NaN, which only a model's own
/// output gives (a model whose scores overflow). `label --json` and `detect --json` count the photo as failed, with
/// an error record; `track --json` writes the frame's record with this message as its `error`.
package struct NotFiniteResult: Error, CustomStringConvertible {
    /// What was not finite: "a box, score or label confidence" of objects, "a label confidence" of labels.
    package let what: String

    package var description: String {
        "the model gave \(what) that is not finite (infinity or NaN), which JSON cannot hold"
    }
}
