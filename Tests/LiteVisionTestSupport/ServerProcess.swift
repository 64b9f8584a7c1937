import Foundation

/// The helper process of a loopback test server: a command (usually a Python script) that prints one line on its
/// standard output once it is ready (its port, or `ready`), keeps running, and exits when its standard input
/// closes, so that it never outlives the test process. Its error output goes to a log file in the server's folder
/// and is quoted when it fails to start.
final class ServerProcess {
    /// The line the process printed when it became ready, without the newline.
    let firstLine: String
    private let process: Process
    private let input = Pipe()
    private let output = Pipe()
    private var stopped = false

    /// Starts `executable` with `arguments` and waits, at most `timeout` seconds, for its first line. `name` (the
    /// server's type) and `log` (its error output) make the message when it does not start.
    init(name: String, executable: String, arguments: [String], log: URL, timeout: Double) throws {
        guard FileManager.default.isExecutableFile(atPath: executable) else {
            throw LoopbackServerError("\(name) cannot start: \(executable) is missing")
        }
        guard FileManager.default.createFile(atPath: log.path, contents: nil),
            let errors = FileHandle(forWritingAtPath: log.path)
        else {
            throw LoopbackServerError("\(name) cannot start: cannot write its log \(log.path)")
        }
        process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.standardInput = input
        process.standardOutput = output
        process.standardError = errors
        do {
            try process.run()
        } catch {
            try? errors.close()
            throw LoopbackServerError("\(name) cannot start \(executable): \(error)")
        }
        try? errors.close()
        let (line, timedOut) = Self.readLine(output.fileHandleForReading.fileDescriptor, timeout: timeout)
        firstLine = line ?? ""
        guard line != nil else {
            // At the end of its output the process is exiting: give it a moment, for its own exit status.
            let exiting = Date().addingTimeInterval(1)
            while !timedOut && process.isRunning && Date() < exiting { usleep(10_000) }
            let exited = !process.isRunning
            stopNow()
            let stderr = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
            let what =
                exited
                ? "exited with status \(process.terminationStatus) before it was ready"
                : "did not become ready within \(Int(timeout)) s"
            throw LoopbackServerError(
                "\(name) \(what): \(stderr.trimmingCharacters(in: .whitespacesAndNewlines).suffix(2000))")
        }
    }

    deinit { stopNow() }

    /// Whether the process still runs.
    var isRunning: Bool { process.isRunning }

    /// Kills the process at once (SIGKILL, as a camera that loses power), waits for it and closes the pipes.
    func stopNow() {
        if stopped { return }
        stopped = true
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
        }
        process.waitUntilExit()
        try? input.fileHandleForWriting.close()
        try? output.fileHandleForReading.close()
    }

    /// Reads up to the first newline of `fd`: nil at the end of the file or after `timeout` seconds (then
    /// `timedOut`). Polls the descriptor on the caller's thread, so that no thread is left behind.
    private static func readLine(_ fd: Int32, timeout: Double) -> (line: String?, timedOut: Bool) {
        let deadline = Date().addingTimeInterval(timeout)
        var bytes: [UInt8] = []
        while !bytes.contains(UInt8(ascii: "\n")) {
            let remaining = deadline.timeIntervalSinceNow
            if remaining <= 0 { return (nil, true) }
            var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let ready = poll(&descriptor, 1, Int32(min(remaining, 1) * 1000) + 1)
            if ready < 0 && errno != EINTR { return (nil, false) }
            if ready <= 0 { continue }
            var chunk = [UInt8](repeating: 0, count: 256)
            let count = read(fd, &chunk, chunk.count)
            if count <= 0 { return (nil, false) }
            bytes += chunk[..<count]
        }
        let line = bytes.prefix { $0 != UInt8(ascii: "\n") }
        return (String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespaces), false)
    }
}
