import Foundation

/// Debian's nginx on a free loopback port with a configuration of the test's own. Stopped, and its folder removed,
/// when the value goes. A missing nginx is a setup error (`scripts/setup.sh --dev` installs it), never a skip.
public final class NginxProcess {
    static let executable = "/usr/sbin/nginx"

    /// The temporary folder of its configuration, logs and whatever the configuration keeps there.
    public let folder: URL
    /// The loopback port it listens on.
    public let port: Int
    private let process = Process()
    private let log: OutputLog

    /// nginx with a configuration of the test's own: `configuration(port, folder)` gives its text, listening on
    /// `port` (nginx is ready when that port accepts) and keeping its files in `folder`.
    public init(configuration: (_ port: Int, _ folder: URL) throws -> String) throws {
        guard FileManager.default.isExecutableFile(atPath: Self.executable) else {
            throw LoopbackServerError("nginx is not at \(Self.executable): run scripts/setup.sh --dev")
        }
        folder = TestData.temporaryDirectory("nginx")
        // As root nginx runs its workers as `nobody`, who may have to write here (a cache).
        chmod(folder.path, 0o777)
        port = try LoopbackPort.unused()
        let text = try configuration(port, folder)
        let configuration = folder.appendingPathComponent("nginx.conf")
        try text.write(to: configuration, atomically: true, encoding: .utf8)
        process.executableURL = URL(fileURLWithPath: Self.executable)
        process.arguments = [
            "-e", "stderr", "-p", folder.path, "-c", configuration.path, "-g",
            "daemon off; pid \(folder.path)/nginx.pid;",
        ]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        log = OutputLog(reading: output)
        try process.run()
        let listening = waitUntil(seconds: 30, every: 0.05) {
            (try? LoopbackSocket(port: port)) != nil ? true : process.isRunning ? nil : false
        }
        guard listening == true else {
            stop()
            throw LoopbackServerError("nginx did not start: \(log.text)")
        }
    }

    /// `http://127.0.0.1:PORT`.
    public var base: String { "http://127.0.0.1:\(port)" }

    /// What nginx printed (its access log and errors).
    public var output: String { log.text }

    /// Stops nginx (its folder goes with the value).
    public func stop() {
        guard process.isRunning else { return }
        process.terminate()
        process.waitUntilExit()
    }

    deinit {
        stop()
        try? FileManager.default.removeItem(at: folder)
    }
}
