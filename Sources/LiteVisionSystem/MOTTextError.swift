/// Why a MOTChallenge text file was refused (``MOTTextReader`` and the formats built on it): the file, the line
/// (from 1) when one line is at fault, and what is wrong and how to fix it.
package struct MOTTextError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file, as given.
    package var path: String
    /// The line at fault, from 1; nil when the whole file is.
    package var line: Int?
    /// What is wrong, in words that fit after "file:line: ".
    package var problem: String

    /// A problem in `path` (at `line`, when given).
    package init(path: String, line: Int? = nil, problem: String) {
        self.path = path
        self.line = line
        self.problem = problem
    }

    /// `file:line: problem`, or `file: problem`.
    package var description: String {
        line.map { "\(path):\($0): \(problem)" } ?? "\(path): \(problem)"
    }
}
