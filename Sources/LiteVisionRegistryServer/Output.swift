import LiteVisionCommandSupport
import LiteVisionSystem

/// Standard output could not take a line (a full disk, a closed pipe): the command's result was lost.
struct StandardOutputLost: Error, CustomStringConvertible {
    /// Why the write failed, as the system says it.
    let reason: String
    var description: String { "standard output could not be written: \(reason)" }
}

/// Writes a line to standard output, unbuffered (a line printed by the server reaches a pipe at once); a line
/// that cannot be written is an error, so that no command reports success with its result lost. Interpolated
/// values (paths, error texts) have their control characters escaped (``ConsoleText``).
func printLine(_ text: ConsoleText) throws(StandardOutputLost) {
    do {
        try write(text.rendered, to: STDOUT_FILENO)
    } catch {
        throw StandardOutputLost(reason: error.reason)
    }
}

/// Writes a line to standard error (best effort: there is nowhere left to report its failure), interpolated
/// values escaped as in ``printLine(_:)``.
func printError(_ text: ConsoleText) {
    try? write(text.rendered, to: STDERR_FILENO)
}

private func write(_ text: String, to descriptor: Int32) throws(SystemError) {
    let line = Array((text + "\n").utf8)
    let failure = line.withUnsafeBytes { bytes -> SystemError? in
        do throws(SystemError) {
            try Platform.writeAll(bytes, to: descriptor, path: "output")
            return nil
        } catch {
            return error
        }
    }
    if let failure { throw failure }
}
