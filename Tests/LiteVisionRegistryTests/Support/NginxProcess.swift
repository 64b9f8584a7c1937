import Foundation
import LiteVisionTestSupport

/// Debian's nginx on a free loopback port with the repository's `deploy/nginx/nginx.conf`, its site values
/// replaced: the port, the replicas, the cache folder (a temporary one). Stopped, and its folder removed, when the
/// value goes. A missing nginx is a setup error (`scripts/setup.sh --dev` installs it), never a skip.
final class NginxProcess {
    static let executable = "/usr/sbin/nginx"
    /// `deploy/nginx/nginx.conf` in this checkout.
    static let configuration = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("deploy/nginx/nginx.conf")

    let folder: URL
    let port: Int
    private let process = Process()
    private let log = OutputLog()

    /// nginx in front of the registry replicas listening on `replicas` (two ports).
    convenience init(replicas: [Int]) throws {
        let deploy = try String(contentsOf: Self.configuration, encoding: .utf8)
        try self.init { port, folder in
            var text = deploy
            for (site, value) in [
                ("listen 8080;", "listen 127.0.0.1:\(port);"), ("registry-a:8470", "127.0.0.1:\(replicas[0])"),
                ("registry-b:8470", "127.0.0.1:\(replicas[1])"), ("/var/cache/nginx/litevision", folder.path),
            ] {
                guard text.contains(site) else {
                    throw PostgresServerError(message: "deploy/nginx/nginx.conf no longer has the site value \(site)")
                }
                text = text.replacingOccurrences(of: site, with: value)
            }
            return text
        }
    }

    /// nginx with a configuration of the test's own: `configuration(port, folder)` gives its text, listening on
    /// `port` (nginx is ready when that port accepts) and keeping its files in `folder`.
    init(configuration: (_ port: Int, _ folder: URL) throws -> String) throws {
        guard FileManager.default.isExecutableFile(atPath: Self.executable) else {
            throw PostgresServerError(message: "nginx is not at \(Self.executable): run scripts/setup.sh --dev")
        }
        folder = TestData.temporaryDirectory("nginx")
        // As root nginx runs its workers as `nobody`, who must write the cache.
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
        output.fileHandleForReading.readabilityHandler = { [log] handle in log.append(handle.availableData) }
        try process.run()
        let deadline = Date().addingTimeInterval(30)
        while (try? LoopbackSocket(port: port)) == nil {
            guard Date() < deadline, process.isRunning else {
                stop()
                throw PostgresServerError(message: "nginx did not start: \(log.text)")
            }
            Thread.sleep(forTimeInterval: 0.05)
        }
    }

    var base: String { "http://127.0.0.1:\(port)" }

    /// What nginx printed (its access log and errors).
    var output: String { log.text }

    func stop() {
        guard process.isRunning else { return }
        process.terminate()
        process.waitUntilExit()
    }

    deinit {
        stop()
        try? FileManager.default.removeItem(at: folder)
    }
}
