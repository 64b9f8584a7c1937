/// The live view could not start: the reason, said so that the user knows what to change.
package struct LiveViewError: Error, CustomStringConvertible {
    /// What went wrong.
    package let description: String

    /// An error saying `description`.
    init(_ description: String) { self.description = description }
}
