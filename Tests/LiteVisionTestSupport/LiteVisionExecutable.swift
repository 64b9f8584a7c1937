import Foundation

/// The built `litevision` programs, run as a user would: by the CLI tests and by the library tests that check
/// a behaviour on the command line too.
public enum LiteVisionExecutable {
    /// The built `litevision` next to the test bundle (`swift build --build-tests` builds both).
    public static let path: String = {
        let folder = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for candidate in [folder, folder.deletingLastPathComponent()] {
            let path = candidate.appendingPathComponent("litevision").path
            if FileManager.default.isExecutableFile(atPath: path) { return path }
        }
        fatalError("the litevision executable was not built next to the tests in \(folder.path): run scripts/test.sh")
    }()

    /// Runs `program` (by default `litevision`) with `arguments` and returns what it did.
    public static func run(
        _ arguments: [String], environment: [String: String] = [:], program: String = path
    ) throws -> (status: Int32, output: String, errors: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = arguments
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        }
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let out = output.fileHandleForReading.readDataToEndOfFile()
        let err = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: out, as: UTF8.self), String(decoding: err, as: UTF8.self))
    }

    /// What ``runMeasuringMemory(_:program:)`` saw of a finished program.
    public struct MeasuredRun {
        /// The exit status, or minus the signal's number when a signal ended the program.
        public var status: Int32
        /// What the program wrote to standard output.
        public var output: String
        /// What the program wrote to standard error.
        public var errors: String
        /// The program's peak resident memory, in MiB.
        public var peakMegabytes: Double
    }

    /// Runs `program` (by default `litevision`) with `arguments` under a small python3 parent, whose
    /// `getrusage(RUSAGE_CHILDREN)` then holds the program's peak resident memory alone (a child started straight
    /// from the test process would count the memory they shared before `exec`): for the hostile inputs, which must
    /// all stay under 1 GB (issue 9).
    public static func runMeasuringMemory(_ arguments: [String], program: String = path) throws -> MeasuredRun {
        // The parent's first line is the status and the peak; then come the program's output and, on the parent's
        // standard error, the program's.
        let script = """
            import resource, subprocess, sys
            done = subprocess.run(sys.argv[1:], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
            peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
            sys.stdout.buffer.write(b"%d %d\\n" % (done.returncode, peak) + done.stdout)
            sys.stderr.buffer.write(done.stderr)
            """
        let parent = try run(["python3", "-c", script, program] + arguments, program: "/usr/bin/env")
        let header = parent.output.prefix { $0 != "\n" }
        let fields = header.split(separator: " ").compactMap { Int($0) }
        guard fields.count == 2 && parent.output.count > header.count else {
            throw MeasuredRunError(message: "the measuring parent printed no status and peak: \(parent)")
        }
        return MeasuredRun(
            status: Int32(fields[0]), output: String(parent.output.dropFirst(header.count + 1)),
            errors: parent.errors, peakMegabytes: Double(fields[1]) / 1024)
    }
}

/// ``LiteVisionExecutable/runMeasuringMemory(_:program:)`` could not read what its python3 parent printed.
public struct MeasuredRunError: Error, CustomStringConvertible {
    /// What went wrong, with the parent's output.
    public let message: String
    public var description: String { message }
}
