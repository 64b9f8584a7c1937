import Foundation
import LiteVisionTestSupport
import Synchronization

/// The built executables next to the test bundle (`swift build --build-tests` builds them all).
enum Executables {
    static func path(_ name: String) -> String {
        let folder = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for candidate in [folder, folder.deletingLastPathComponent()] {
            let path = candidate.appendingPathComponent(name).path
            if FileManager.default.isExecutableFile(atPath: path) { return path }
        }
        fatalError("the \(name) executable was not built next to the tests in \(folder.path): run scripts/test.sh")
    }

    static let litevision = path("litevision")
    static let registry = path("litevision-registry")

    /// Runs `executable` to its end: exit status, standard output and standard error.
    static func run(
        _ executable: String, _ arguments: [String], environment: [String: String] = [:]
    ) throws -> (status: Int32, output: String, errors: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        // Both pipes drained at once, so that neither fills while the other is read.
        let errorData = Mutex(Data())
        let reader = Thread { errorData.withLock { $0 = errors.fileHandleForReading.readDataToEndOfFile() } }
        reader.start()
        let out = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        while !reader.isFinished { Thread.sleep(forTimeInterval: 0.005) }
        return (
            process.terminationStatus, String(decoding: out, as: UTF8.self),
            String(decoding: errorData.withLock { $0 }, as: UTF8.self)
        )
    }

    /// `litevision ARGS`.
    static func litevision(
        _ arguments: [String], environment: [String: String] = [:]
    ) throws -> (
        status: Int32, output: String, errors: String
    ) {
        try run(litevision, arguments, environment: environment)
    }
}

/// `litevision-registry serve` as a child process on loopback, as an operator runs it.
final class RegistryProcess {
    let data: String
    let port: Int
    let scheme: String
    let host: String
    private let process: Process
    private let log: OutputLog

    /// Starts a server on `data` (port 0: a free one) and waits until it listens.
    convenience init(data: String, port: Int = 0, host: String = "127.0.0.1", arguments: [String] = []) throws {
        try self.init(storage: ["--data", data], data: data, port: port, host: host, arguments: arguments)
    }

    /// Starts a server on the PostgreSQL database `url` (a replica), with `environment` added to the test's own.
    convenience init(database url: String, environment: [String: String], arguments: [String] = []) throws {
        try self.init(
            storage: ["--database", url], data: url, port: 0, host: "127.0.0.1", arguments: arguments,
            environment: environment)
    }

    private init(
        storage: [String], data: String, port: Int, host: String, arguments: [String],
        environment: [String: String] = [:]
    ) throws {
        self.data = data
        self.host = host
        process = Process()
        process.executableURL = URL(fileURLWithPath: Executables.registry)
        process.arguments = ["serve"] + storage + ["--host", host, "--port", String(port)] + arguments
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        }
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        log = OutputLog(reading: output)
        try process.run()
        // Locals: the closure may not capture `self` before `scheme` and `port` are set.
        var found: (String, Int)?
        let child = process, log = log
        _ = waitUntil(seconds: 120) { () -> Bool? in
            found = Self.listening(in: log.text, host: host)
            return found != nil || !child.isRunning ? true : nil
        }
        Thread.sleep(forTimeInterval: 0.05)
        guard let found else {
            process.terminate()
            throw RegistryProcessError(
                message: "the registry did not start: \(log.text)")
        }
        (scheme, self.port) = found
    }

    /// A publish token made with `litevision-registry token create` on this server's folder, and the file
    /// `publish.token` in `folder` that holds it (for `--token-file`).
    func makePublishToken(in folder: URL) throws -> (token: String, file: String) {
        let made = try Executables.run(Executables.registry, ["token", "create", "--data", data, "--role", "publish"])
        guard made.status == 0 else { throw RegistryProcessError(message: "token create: \(made.errors)") }
        let file = folder.appendingPathComponent("publish.token").path
        try Data(made.output.utf8).write(to: URL(fileURLWithPath: file))
        return (made.output.trimmingCharacters(in: .whitespacesAndNewlines), file)
    }

    /// The server's address.
    var base: String { "\(scheme)://\(host):\(port)" }

    /// What the server printed so far.
    var output: String { log.text }

    var isRunning: Bool { process.isRunning }

    /// The process id.
    var pid: Int32 { process.processIdentifier }

    /// Sends `signal` and waits for the process to end.
    func stop(_ signal: Int32 = SIGTERM) {
        guard process.isRunning else { return }
        kill(process.processIdentifier, signal)
        process.waitUntilExit()
    }

    /// Sends `signal` without waiting.
    func signal(_ signal: Int32) { kill(process.processIdentifier, signal) }

    /// The exit status once the process has ended within `seconds`, else nil.
    func exitStatus(within seconds: Double) -> Int32? {
        _ = waitUntil(seconds: seconds) { process.isRunning ? nil : true }
        return process.isRunning ? nil : process.terminationStatus
    }

    deinit { stop(SIGKILL) }

    /// The scheme and port of the "serving … at http://HOST:PORT" line.
    private static func listening(in text: String, host: String) -> (String, Int)? {
        guard let range = text.range(of: "://\(host):") else { return nil }
        let scheme = text[..<range.lowerBound].hasSuffix("https") ? "https" : "http"
        let digits = text[range.upperBound...].prefix { $0.isNumber }
        guard let port = Int(digits), text[range.upperBound...].dropFirst(digits.count).first == "\n" else {
            return nil
        }
        return (scheme, port)
    }
}

struct RegistryProcessError: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}
