import FoundationEssentials
import LiteVisionSystem

/// A one-line byte progress bar on standard error while a model downloads, shown only on a terminal.
package final class DownloadProgress {
    private let label: String
    private let enabled = Console.errorIsTerminal
    private var shown = false
    private var lastPercent = -1
    private var lastBytes: Int64 = -1

    package init(label: String) {
        self.label = label
    }

    /// Shows `completed` of `total` bytes (redrawn when the percentage or, without a total, the MB count moves).
    package func update(_ completed: Int64, _ total: Int64?) {
        guard enabled else { return }
        let width = 30
        if let total, total > 0 {
            let percent = Int(min(100, completed * 100 / total))
            guard percent != lastPercent else { return }
            lastPercent = percent
            let filled = percent * width / 100
            let bar = String(repeating: "=", count: filled) + String(repeating: " ", count: width - filled)
            Console.write("\r\(label) [\(bar)] \(percent)% of \(Self.megabytes(total))", to: STDERR_FILENO)
        } else {
            guard completed / 1_000_000 != lastBytes / 1_000_000 else { return }
            lastBytes = completed
            Console.write("\r\(label) \(Self.megabytes(completed))", to: STDERR_FILENO)
        }
        shown = true
    }

    /// Erases the bar.
    package func finish() {
        guard shown else { return }
        Console.write("\r\u{1B}[K", to: STDERR_FILENO)
        shown = false
    }

    package static func megabytes(_ bytes: Int64) -> String {
        let tenths = (bytes + 50_000) / 100_000
        return "\(tenths / 10).\(tenths % 10) MB"
    }
}
