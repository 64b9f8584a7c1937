import Foundation
import LiteVisionTestSupport

/// `litevision track` running in the background, as a user starts it from a shell: its standard error collected as
/// it comes (``waitFor(_:seconds:)`` finds a line), standard output discarded; interrupted (SIGINT) and waited for
/// by ``stop()`` or ended by ``end(within:)``, killed if it does not end in time or the test ends first. Blocking:
/// async tests use it through `onThread`.
final class TrackProcess {
    private let process = Process()
    /// Standard error so far.
    private let errorLog: OutputLog

    /// Starts `litevision track ARGUMENTS --model-dir …`.
    init(_ arguments: [String]) throws {
        process.executableURL = URL(fileURLWithPath: LiteVisionExecutable.path)
        process.arguments = ["track"] + arguments + ["--model-dir", TestData.path("models")]
        let errorPipe = Pipe()
        process.standardError = errorPipe
        process.standardOutput = FileHandle.nullDevice
        errorLog = OutputLog(reading: errorPipe)
        try process.run()
    }

    deinit {
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }

    /// Whether the command is still running.
    var isRunning: Bool { process.isRunning }

    /// What the command printed on standard error so far.
    var errors: String { errorLog.text }

    /// The first line of standard error that contains `text`, waiting up to `seconds` for it; nil when it did not
    /// come (or the command ended first).
    func waitFor(_ text: String, seconds: Double = 60) -> String? {
        poll(seconds: seconds, whileRunning: true) {
            errors.split(separator: "\n").first { $0.contains(text) }.map(String.init)
        }
    }

    /// `check`'s first non-nil answer, asked every 20 ms for up to `seconds` (and, if `whileRunning`, only while the
    /// command runs); nil when none came.
    private func poll<T>(seconds: Double, whileRunning: Bool, _ check: () -> T?) -> T? {
        var answer: T?
        _ = waitUntil(seconds: seconds) { () -> Bool? in
            let running = process.isRunning  // asked first: what the command wrote before it ended is looked at
            answer = check()
            return answer != nil || (whileRunning && !running) ? true : nil
        }
        return answer
    }

    /// The live view's URL from `litevision: live view at URL`.
    func liveViewURL() throws -> String {
        guard let line = waitFor("live view at "), let url = line.components(separatedBy: "live view at ").last else {
            throw LoopbackServerError("litevision track did not announce its live view: \(errors)")
        }
        return url
    }

    /// Sends `signal` to the command, if it still runs (never to a process ID that may have been reused).
    func send(_ signal: Int32) {
        if process.isRunning { kill(process.processIdentifier, signal) }
    }

    /// Whether the file at `path` holds more than `count` whole lines within `seconds`, waiting only while the command
    /// runs (a loaded machine may take long to start it, so tests wait for its output, not for a time).
    func waitForLines(in path: String, moreThan count: Int, seconds: Double = 60) -> Bool {
        let lines = poll(seconds: seconds, whileRunning: true) { () -> Bool? in
            let data = FileManager.default.contents(atPath: path) ?? Data()
            return data.lazy.filter { $0 == UInt8(ascii: "\n") }.count > count ? true : nil
        }
        return lines ?? false
    }

    /// Waits up to `seconds` for the command to end by itself, then kills it (SIGKILL): its exit status, so that a
    /// command that no longer stops fails the test instead of hanging the run. ``errors`` is complete afterwards,
    /// unless something the command started still holds its standard error open 10 s later (then it is what came).
    @discardableResult
    func end(within seconds: Double = 30) -> Int32 {
        _ = poll(seconds: seconds, whileRunning: false) { process.isRunning ? nil : true }
        send(SIGKILL)
        process.waitUntilExit()
        // What is left in the pipe.
        _ = errorLog.waitForEnd()
        return process.terminationStatus
    }

    /// Interrupts the command (SIGINT) and waits for it (see ``end(within:)``): its exit status.
    @discardableResult
    func stop() -> Int32 {
        send(SIGINT)
        return end()
    }
}
