/// A loopback streaming server of the tests could not start, or its fixtures could not be made: a setup error,
/// never a reason to skip. The description says what failed, with the helper's own error output; when a Debian
/// package is missing it names the package (`scripts/setup.sh --dev` installs them all).
public struct LoopbackServerError: Error, CustomStringConvertible {
    /// What failed, in a sentence or two.
    public let description: String

    /// An error saying `description`.
    public init(_ description: String) { self.description = description }
}
