import Foundation

/// Runs a Python helper of the tests (reference.py, mediapipe_results.py) with `python3` from the path.
enum PythonTool {
    /// Runs `script` with `arguments`, standard output discarded. A failure (a missing package among them) is a
    /// ``SetupError`` quoting the end of standard error and saying what the script `needs`, never a skip.
    static func run(_ script: String, arguments: [String], needs: String) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", script] + arguments
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            let name = (script as NSString).lastPathComponent
            throw SetupError(
                """
                \(name) failed (status \(process.terminationStatus)); it needs python3 with \(needs) \
                (scripts/setup.sh --dev installs them):
                \(message.suffix(2000))
                """)
        }
    }
}
