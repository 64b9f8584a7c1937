import Foundation

/// A TCP listener on 127.0.0.1 that accepts every connection and never answers: it holds the connections open and
/// sends nothing, reads nothing (a camera or server that hangs), until ``stop()``. A client must give up on its own
/// timeout. Any scheme can point at it: ``url(scheme:path:)``.
public final class StalledTestServer {
    /// The loopback port the server listens on.
    public let port: Int
    private let folder: URL
    private let process: ServerProcess

    /// Starts the listener on a free loopback port and returns once it listens (throws after `timeout` seconds).
    public init(timeout: Double = 10) throws {
        folder = TestData.temporaryDirectory("stalled-server")
        let scriptURL = folder.appendingPathComponent("stalled-server.py")
        try Self.script.write(to: scriptURL, atomically: true, encoding: .utf8)
        process = try ServerProcess(
            name: "StalledTestServer", executable: "/usr/bin/env",
            arguments: ["python3", scriptURL.path, folder.appendingPathComponent("accepted").path],
            log: folder.appendingPathComponent("stalled-server.log"), timeout: timeout)
        guard let port = Int(process.firstLine), port > 0 else {
            process.stopNow()
            throw LoopbackServerError("StalledTestServer printed \(process.firstLine) instead of its port")
        }
        self.port = port
    }

    deinit { stop() }

    /// A URL of this server, such as `rtsp://127.0.0.1:PORT/cam` or `http://127.0.0.1:PORT/x`.
    public func url(scheme: String, path: String = "/cam") -> String { "\(scheme)://127.0.0.1:\(port)\(path)" }

    /// How many connections the server has accepted so far.
    public var acceptedConnections: Int {
        let text = (try? String(contentsOf: folder.appendingPathComponent("accepted"), encoding: .utf8)) ?? ""
        return text.count
    }

    /// Stops the server, which drops the connections it holds, and removes its folder.
    public func stop() {
        process.stopNow()
        try? FileManager.default.removeItem(at: folder)
    }

    private static let script = #"""
        import os, socket, sys, threading
        held = []
        # Exit when the test closes our standard input (or dies).
        threading.Thread(target=lambda: (sys.stdin.buffer.read(), os._exit(0)), daemon=True).start()
        listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind(("127.0.0.1", 0))
        listener.listen(64)
        print(listener.getsockname()[1], flush=True)
        with open(sys.argv[1], "a") as accepted:
            while True:
                connection, _ = listener.accept()
                held.append(connection)  # never read, never answered, never closed
                accepted.write("."); accepted.flush()
        """#
}
