import LiteVisionSystem
import Synchronization

/// Writing to standard output and standard error, and whether standard error is a terminal: the one writer of
/// the output of every command of the package (`litevision`, `litevision-media`, `litevision-registry`). What it
/// writes is ``ConsoleText``, whose interpolated values (file names, labels, a registry's sentences) have their
/// control characters escaped, so that none of them reaches the terminal raw. A line of standard output that
/// cannot be written (a full disk, a closed pipe) never goes unnoticed: ``output(_:)`` makes the process end with
/// status 1, ``checkedOutput(_:)`` throws.
package enum Console {
    /// Writes a line to standard output; a line that cannot be written is remembered (see
    /// ``failOnLostOutputAtExit()``) and later lines are not attempted.
    package static func output(_ text: ConsoleText) {
        guard lostOutput.withLock({ $0 == nil }) else { return }
        if let code = writeRaw(text.rendered + "\n", to: STDOUT_FILENO) { lostOutput.withLock { $0 = code } }
    }

    /// Writes a line to standard output, unbuffered, and throws when it cannot be written: for a command that
    /// reports the loss itself (the registry's `token create` says the new token was never shown). Unlike
    /// ``output(_:)``, the loss is not remembered for the exit.
    package static func checkedOutput(_ text: ConsoleText) throws(StandardOutputLost) {
        if let code = writeRaw(text.rendered + "\n", to: STDOUT_FILENO) {
            throw StandardOutputLost(reason: errorDescription(code))
        }
    }

    /// Writes a line to standard error (best effort: there is nowhere left to report its failure).
    package static func error(_ text: ConsoleText) { writeRaw(text.rendered + "\n", to: STDERR_FILENO) }

    /// Writes all of `text` with write(2): unbuffered, so output is never lost on exit. Returns the error
    /// number when not all of it could be written.
    @discardableResult
    package static func write(_ text: ConsoleText, to descriptor: Int32) -> Int32? {
        writeRaw(text.rendered, to: descriptor)
    }

    @discardableResult
    private static func writeRaw(_ text: String, to descriptor: Int32) -> Int32? {
        var text = text
        return text.withUTF8 { bytes -> Int32? in
            do throws(SystemError) {
                try Platform.writeAll(UnsafeRawBufferPointer(bytes), to: descriptor, path: "output")
                return nil
            } catch {
                return error.code ?? EIO
            }
        }
    }

    /// The error number of the first line of standard output that could not be written.
    private static let lostOutput = Mutex<Int32?>(nil)

    /// Makes the process end with status 1 and a message when a line of standard output was lost (a full disk,
    /// a pipe closed with SIGPIPE ignored), whatever status it was ending with. Call once, first thing in `main`.
    package static func failOnLostOutputAtExit() {
        atexit { Console.failIfOutputWasLost() }
    }

    /// Ends the process at once with `status` (no exit handlers, no teardown), or with 1 and a message when a
    /// line of standard output was lost.
    package static func exitImmediately(_ status: Int32) -> Never {
        failIfOutputWasLost()
        _exit(status)
    }

    private static func failIfOutputWasLost() {
        guard let code = lostOutput.withLock({ $0 }) else { return }
        error("litevision: standard output could not be written: \(String(cString: strerror(code)))")
        _exit(1)
    }

    package static var errorIsTerminal: Bool { isatty(STDERR_FILENO) != 0 }
}

/// Standard output could not take a line (a full disk, a closed pipe): the command's result was lost.
package struct StandardOutputLost: Error, CustomStringConvertible {
    /// Why the write failed, as the system says it.
    package let reason: String
    package var description: String { "standard output could not be written: \(reason)" }
}

/// A one-line progress bar on standard error, shown only on a terminal and for more than one item.
package final class ProgressBar {
    private let total: Int
    private var done = 0
    private let enabled: Bool
    private var shown = false

    package init(total: Int) {
        self.total = total
        self.enabled = total > 1 && Console.errorIsTerminal
    }

    package func advance() {
        done += 1
        guard enabled else { return }
        let width = 30
        let filled = total == 0 ? width : done * width / total
        let bar = String(repeating: "=", count: filled) + String(repeating: " ", count: width - filled)
        Console.write("\r[\(bar)] \(done)/\(total)", to: STDERR_FILENO)
        shown = true
    }

    /// Erases the bar so a line of output can be printed.
    package func clear() {
        guard shown else { return }
        Console.write("\r\u{1B}[K", to: STDERR_FILENO)
        shown = false
    }

    package func finish() { clear() }
}

package extension Console {
    /// Runs `body` with file descriptor 2 pointed at /dev/null: TFLite prints "Created TensorFlow Lite XNNPACK
    /// delegate for CPU." when a model is compiled, which the runtime's log level does not silence. Only for
    /// the start of a command, while it makes its labeler or detector: the redirection is process-wide, so what
    /// the threads working meanwhile (the runtime loader, the photo prefetch) write to standard error is dropped
    /// too; they report failures through `VisionError`, never by printing.
    static func silencingStandardError<R>(_ body: () throws -> R) rethrows -> R {
        let saved = dup(STDERR_FILENO)
        let null = open("/dev/null", O_WRONLY)
        if saved >= 0 && null >= 0 { dup2(null, STDERR_FILENO) }
        defer {
            if saved >= 0 {
                dup2(saved, STDERR_FILENO)
                close(saved)
            }
            if null >= 0 { close(null) }
        }
        return try body()
    }
}
