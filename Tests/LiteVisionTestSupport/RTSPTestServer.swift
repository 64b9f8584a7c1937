import Foundation

/// A real RTSP camera on 127.0.0.1: GStreamer's RTSP server (GstRtspServer, through Python's `gi` under Debian's
/// `/usr/bin/python3`) serving the H.264 video of an MP4 file on one mount (`/cam`), at real-time pace, over RTP on
/// TCP (interleaved) or UDP, as the client asks. Every client that connects gets its own pipeline, from the
/// start of the file; the stream ends with the file (see ``StreamFixtures/concatenated(_:times:in:)`` for a
/// longer one). With credentials, requests without them or with wrong ones get `401 Unauthorized` (Basic).
///
/// ``stop()`` kills the server (a camera losing power: clients see their connection end), ``restart()`` starts a
/// new one on the same port, so that a client can reconnect to the same ``url``. A missing Debian package is a
/// thrown ``LoopbackServerError`` that names it.
public final class RTSPTestServer: @unchecked Sendable {
    // @unchecked: `process` and `starts`, the only mutable state, are used only while `lock` holds; the rest is
    // constant.
    /// The MP4 file served.
    public let clip: String
    /// The mount the stream is served on, such as `/cam`.
    public let mount: String
    /// The user name clients must give, or nil when the stream is open.
    public let user: String?
    /// The password clients must give, or nil when the stream is open.
    public let password: String?
    /// The loopback port the server listens on (the same after ``restart()``).
    public let port: Int
    private let folder: URL
    private let timeout: Double
    private let lock = NSLock()
    private var process: ServerProcess?
    private var starts = 0

    /// Debian's Python, which has the `gi` module of `python3-gi` (a pyenv `python3` on the PATH does not).
    static let python = "/usr/bin/python3"

    /// Starts a server for `clip` (an MP4 or MOV file whose video is H.264) on `mount`, on a free loopback port,
    /// and returns once it listens. With `user` and `password`, clients must authenticate (Basic). Throws when it
    /// cannot start within `timeout` seconds.
    public init(
        clip: String = StreamFixtures.defaultClip, mount: String = "/cam", user: String? = nil, password: String? = nil,
        timeout: Double = 10
    ) throws {
        precondition(mount.hasPrefix("/"), "the mount is a path such as /cam")
        precondition((user == nil) == (password == nil), "give both a user and a password, or neither")
        self.clip = clip
        self.mount = mount
        self.user = user
        self.password = password
        self.timeout = timeout
        folder = TestData.temporaryDirectory("rtsp-server")
        let first = try Self.launch(
            clip: clip, mount: mount, port: 0, user: user, password: password, folder: folder, attempt: 0,
            timeout: timeout)
        guard let port = Int(first.firstLine), port > 0 else {
            first.stopNow()
            throw LoopbackServerError("RTSPTestServer printed \(first.firstLine) instead of its port")
        }
        self.port = port
        process = first
        starts = 1
    }

    deinit {
        process?.stopNow()
        try? FileManager.default.removeItem(at: folder)
    }

    /// `rtsp://127.0.0.1:PORT/cam`, without credentials.
    public var url: String { "rtsp://127.0.0.1:\(port)\(mount)" }

    /// The URL with `user` and `password` in it (percent-encoded), such as `rtsp://user:pass@127.0.0.1:PORT/cam`.
    public func url(user: String, password: String) -> String {
        let name = user.addingPercentEncoding(withAllowedCharacters: .urlUserAllowed) ?? user
        let secret = password.addingPercentEncoding(withAllowedCharacters: .urlPasswordAllowed) ?? password
        return "rtsp://\(name):\(secret)@127.0.0.1:\(port)\(mount)"
    }

    /// The URL with the server's own credentials in it, or ``url`` when it has none.
    public var authenticatedURL: String {
        guard let user, let password else { return url }
        return url(user: user, password: password)
    }

    /// Whether the server runs (false after ``stop()``, until ``restart()``).
    public var isRunning: Bool {
        lock.lock()
        defer { lock.unlock() }
        return process?.isRunning ?? false
    }

    /// Kills the server at once (SIGKILL): clients see their connections end, as when a camera loses power.
    public func stop() {
        lock.lock()
        defer { lock.unlock() }
        process?.stopNow()
        process = nil
    }

    /// Stops the server if it runs and starts a new one on the same port, the same mount and credentials, and
    /// returns once it listens. Retries binding for a few seconds while the port is still taken.
    public func restart() throws {
        lock.lock()
        defer { lock.unlock() }
        process?.stopNow()
        process = nil
        let next = try Self.launch(
            clip: clip, mount: mount, port: port, user: user, password: password, folder: folder, attempt: starts,
            timeout: timeout)
        starts += 1
        guard next.firstLine == String(port) else {
            next.stopNow()
            throw LoopbackServerError("RTSPTestServer restarted on port \(next.firstLine) instead of \(port)")
        }
        process = next
    }

    private static func launch(
        clip: String, mount: String, port: Int, user: String?, password: String?, folder: URL, attempt: Int,
        timeout: Double
    ) throws -> ServerProcess {
        guard FileManager.default.isExecutableFile(atPath: python) else {
            throw LoopbackServerError(
                "RTSPTestServer needs Debian's \(python) (Debian packages python3 and python3-gi): run "
                    + "scripts/setup.sh --dev")
        }
        guard FileManager.default.isReadableFile(atPath: clip) else {
            throw LoopbackServerError("RTSPTestServer cannot read the clip \(clip)")
        }
        guard FileManager.default.isReadableFile(atPath: scriptPath) else {
            throw LoopbackServerError("RTSPTestServer cannot find its script \(scriptPath)")
        }
        // Seconds the script keeps retrying a port that is still taken, within the start's own timeout.
        let retry = max(1, timeout - 2)
        return try ServerProcess(
            name: "RTSPTestServer", executable: python,
            arguments: [scriptPath, clip, mount, String(port), user ?? "", password ?? "", String(retry)],
            log: folder.appendingPathComponent("rtsp-server-\(attempt).log"), timeout: timeout)
    }

    /// The server's script, in the repository (shared with scripts/bench-streams.sh).
    private static let scriptPath = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../scripts/rtsp-test-server.py").standardized.path
}
