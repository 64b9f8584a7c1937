import Foundation

/// Writing to standard output and standard error, and whether standard error is a terminal.
enum Console {
    static func output(_ text: String) {
        FileHandle.standardOutput.write(Data((text + "\n").utf8))
    }

    static func error(_ text: String) {
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }

    static var errorIsTerminal: Bool { isatty(STDERR_FILENO) != 0 }
}

/// A one-line progress bar on standard error, shown only on a terminal and for more than one item.
final class ProgressBar {
    private let total: Int
    private var done = 0
    private let enabled: Bool
    private var shown = false

    init(total: Int) {
        self.total = total
        self.enabled = total > 1 && Console.errorIsTerminal
    }

    func advance() {
        done += 1
        guard enabled else { return }
        let width = 30
        let filled = total == 0 ? width : done * width / total
        let bar = String(repeating: "=", count: filled) + String(repeating: " ", count: width - filled)
        FileHandle.standardError.write(Data("\r[\(bar)] \(done)/\(total)".utf8))
        shown = true
    }

    /// Erases the bar so a line of output can be printed.
    func clear() {
        guard shown else { return }
        FileHandle.standardError.write(Data("\r\u{1B}[K".utf8))
        shown = false
    }

    func finish() { clear() }
}
