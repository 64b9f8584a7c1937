import Foundation

/// Running a program whose standard output is /dev/full, a device that refuses every write with "no space left
/// on device": how a command behaves when its output is lost.
public enum FullOutput {
    /// Runs `executable` with `arguments`, standard output on /dev/full, to its end: its status and standard error.
    public static func run(_ executable: String, _ arguments: [String]) throws -> (status: Int32, errors: String) {
        guard let full = FileHandle(forWritingAtPath: "/dev/full") else {
            throw FullOutputError(message: "/dev/full is missing: the tests need it")
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let errors = Pipe()
        process.standardOutput = full
        process.standardError = errors
        try process.run()
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, message)
    }
}

/// A setup failure of ``FullOutput``.
public struct FullOutputError: Error, CustomStringConvertible {
    public let message: String
    public var description: String { message }
}
