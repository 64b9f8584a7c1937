import LiteVisionSystem

/// Why an evaluation could not be made: a file that cannot be read, or whose content is not what its format
/// requires, said with the file and, where there is one, the line.
package struct EvaluationError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file (or option) the problem is in.
    package var file: String
    /// The 1-based line of the problem, when the problem has one.
    package var line: Int?
    /// What is wrong, in words that fit after "file:line: ".
    package var reason: String

    /// A problem in `file` (at `line`, when given).
    package init(file: String, line: Int? = nil, reason: String) {
        self.file = file
        self.line = line
        self.reason = reason
    }

    /// `file:line: reason`, or `file: reason`.
    package var description: String {
        line.map { "\(file):\($0): \(reason)" } ?? "\(file): \(reason)"
    }
}

extension EvaluationError {
    /// The bytes of the evaluation file at `path`, refused (with the system's reason) when it is not a regular
    /// file or is larger than `maximumSize`.
    static func readFile(atPath path: String, maximumSize: Int) throws(EvaluationError) -> [UInt8] {
        do throws(SystemError) {
            return try FileContents.read(atPath: path, maximumSize: maximumSize)
        } catch {
            throw EvaluationError(file: path, reason: error.reason)
        }
    }
}
