import Foundation

/// A real HTTP video server on 127.0.0.1 (Python's threading http.server on a free port) with the streams a live
/// video source reads, made from a shared clip by `ffmpeg` into a temporary folder when it starts:
///
/// - `/mjpeg`: an MJPEG stream (`multipart/x-mixed-replace; boundary=litevisionframe`, one JPEG a part) at
///   ``framesPerSecond`` in real time, looping for ever; `/mjpeg-once` plays the frames once and ends.
/// - `/hls/index.m3u8`: HLS, a VOD playlist of MPEG-TS segments of about a second (`/hls/seg000.ts`…);
///   `/live/index.m3u8`: a live playlist, a sliding window of three segments, the segments looping (with
///   `#EXT-X-DISCONTINUITY` at each loop), as a camera publishes them.
/// - ``evilPlaylists``: hostile HLS playlists whose segment is a local file, the FIFO ``secretPath``:
///   `/evil/index.m3u8` (`file:///…/secret.ts`), `/evil/concat.m3u8` (`concat:file://…|file://…`),
///   `/evil/path.m3u8` (the bare path) and `/evil/mixed.m3u8` (a real segment, then the file). A thread of the
///   server notices when anybody opens the FIFO for reading: ``secretWasOpened``, ``secretOpenings``.
/// - `/private/…`: any of the above behind Basic authentication (``user``, ``password``): `401` with
///   `WWW-Authenticate: Basic realm="LiteVision test"` without the right credentials.
///
/// Every request is logged (``requests``). ``stop()`` ends it.
public final class HTTPStreamTestServer {
    /// The temporary folder of the fixtures, the FIFO and the logs.
    public let folder: URL
    /// The loopback port the server listens on.
    public let port: Int
    /// The user name `/private/` wants.
    public let user: String
    /// The password `/private/` wants.
    public let password: String
    /// The MJPEG stream's frame rate.
    public let framesPerSecond: Int
    /// How many JPEG frames the MJPEG stream plays before it loops.
    public let frameCount: Int
    /// How many segments the HLS playlist has.
    public let segmentCount: Int
    private let process: ServerProcess

    /// The hostile playlists (paths), each of whose segments names ``secretPath`` on the client's machine.
    public static let evilPlaylists = ["/evil/index.m3u8", "/evil/concat.m3u8", "/evil/path.m3u8", "/evil/mixed.m3u8"]

    /// Makes the fixtures from `clip` (MJPEG frames at `framesPerSecond`, HLS segments of the video copied: it
    /// must be H.264) and starts the server on a free loopback port; returns once it listens, or throws within
    /// `timeout` seconds of starting it.
    public init(
        clip: String = StreamFixtures.defaultClip, framesPerSecond: Int = 25, user: String = "viewer",
        password: String = "correct horse", timeout: Double = 10
    ) throws {
        precondition(framesPerSecond > 0, "framesPerSecond must be positive")
        self.user = user
        self.password = password
        self.framesPerSecond = framesPerSecond
        folder = TestData.temporaryDirectory("http-stream-server")
        do {
            frameCount = try StreamFixtures.jpegFrames(
                of: clip, framesPerSecond: framesPerSecond, in: folder.appendingPathComponent("frames"))
            let playlist = try StreamFixtures.hlsSegments(of: clip, in: folder.appendingPathComponent("hls"))
            segmentCount = try String(contentsOfFile: playlist, encoding: .utf8)
                .split(separator: "\n").filter { $0.hasPrefix("#EXTINF:") }.count
            guard frameCount > 0, segmentCount > 0 else {
                throw LoopbackServerError("HTTPStreamTestServer made no frames or segments from \(clip)")
            }
            let scriptURL = folder.appendingPathComponent("http-stream-server.py")
            try Self.script.write(to: scriptURL, atomically: true, encoding: .utf8)
            process = try ServerProcess(
                name: "HTTPStreamTestServer", executable: "/usr/bin/env",
                arguments: ["python3", scriptURL.path, folder.path, String(framesPerSecond), user, password],
                log: folder.appendingPathComponent("http-stream-server.log"), timeout: timeout)
        } catch {
            try? FileManager.default.removeItem(at: folder)
            throw error
        }
        guard let port = Int(process.firstLine), port > 0 else {
            process.stopNow()
            throw LoopbackServerError("HTTPStreamTestServer printed \(process.firstLine) instead of its port")
        }
        self.port = port
    }

    deinit { stop() }

    /// `http://127.0.0.1:PORT` followed by `path` (which starts with `/`); with `user` and `password`, they are in
    /// the URL (percent-encoded), as `http://user:password@127.0.0.1:PORT/private/mjpeg`.
    public func url(_ path: String, user: String? = nil, password: String? = nil) -> String {
        guard let user else { return "http://127.0.0.1:\(port)\(path)" }
        let name = user.addingPercentEncoding(withAllowedCharacters: .urlUserAllowed) ?? user
        let secret = (password ?? "").addingPercentEncoding(withAllowedCharacters: .urlPasswordAllowed) ?? ""
        return "http://\(name):\(secret)@127.0.0.1:\(port)\(path)"
    }

    /// The MJPEG stream, looping for ever.
    public var mjpegURL: String { url("/mjpeg") }
    /// The HLS VOD playlist.
    public var hlsURL: String { url("/hls/index.m3u8") }
    /// The HLS live (sliding window) playlist.
    public var liveHLSURL: String { url("/live/index.m3u8") }

    /// The FIFO the hostile playlists point at. Nobody should ever open it.
    public var secretPath: String { folder.appendingPathComponent("secret.ts").path }

    /// How many times somebody has opened ``secretPath`` for reading since the server started (it is polled every
    /// 10 ms; a reader is given 188 bytes and the end of the file).
    public var secretOpenings: Int {
        let flag = folder.appendingPathComponent("secret-opened")
        return ((try? String(contentsOf: flag, encoding: .utf8)) ?? "").count
    }

    /// Whether anybody has opened ``secretPath`` for reading since the server started.
    public var secretWasOpened: Bool { secretOpenings > 0 }

    /// The requests received so far, in order.
    public var requests: [LoggedHTTPRequest] {
        let log = (try? String(contentsOf: folder.appendingPathComponent("requests.log"), encoding: .utf8)) ?? ""
        return log.split(separator: "\n").compactMap {
            try? JSONDecoder().decode(LoggedHTTPRequest.self, from: Data($0.utf8))
        }
    }

    /// Stops the server (dropping open streams) and removes its folder.
    public func stop() {
        process.stopNow()
        try? FileManager.default.removeItem(at: folder)
    }
}
