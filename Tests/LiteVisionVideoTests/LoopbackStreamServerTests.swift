import Foundation
import LiteVisionTestSupport
import Testing

extension VideoTests {
    /// The loopback streaming servers the live video source is tested against, checked with Debian's `ffprobe` and
    /// `ffmpeg` commands: each serves what it claims, at real-time pace, and stops.
    @Suite("Loopback streaming servers") struct LoopbackStreamServers {
        private let scratch = ScratchDirectory()

        @Test("RTSP: H.264 640x480 over TCP and UDP, in real time")
        func rtsp() throws {
            let server = try RTSPTestServer()
            defer { server.stop() }
            #expect(server.url == "rtsp://127.0.0.1:\(server.port)/cam")
            let probe = try Tool.run("ffprobe", ["-rtsp_transport", "tcp"] + Tool.streamFields + [server.url])
            #expect(probe.output.contains("h264,640,480"), "\(probe.output)")
            for transport in ["tcp", "udp"] {
                // Three seconds of a 26.8 fps stream take three seconds when the server keeps real time.
                let run = try Tool.frames(["-rtsp_transport", transport, "-i", server.url, "-t", "3"])
                #expect(run.frames >= 70 && run.frames <= 90, "\(transport): \(run.frames) frames")
                #expect(run.seconds >= 2.5, "\(transport): 3 s of stream in \(run.seconds) s")
            }
        }

        @Test("RTSP with credentials: 401 without them or with wrong ones")
        func rtspCredentials() throws {
            let server = try RTSPTestServer(user: "viewer", password: "p@ss:word")
            defer { server.stop() }
            let tcp = ["-rtsp_transport", "tcp"] + Tool.streamFields
            for url in [server.url, server.url(user: "viewer", password: "wrong")] {
                let refused = try Tool.run("ffprobe", tcp + [url])
                #expect(refused.status != 0)
                #expect(refused.output.contains("401"), "\(refused.output)")
            }
            #expect(server.authenticatedURL.contains("viewer:p%40ss%3Aword@"))
            let allowed = try Tool.run("ffprobe", tcp + [server.authenticatedURL])
            #expect(allowed.output.contains("h264,640,480"), "\(allowed.output)")
        }

        @Test("RTSP stopped mid-stream, then restarted on the same port")
        func rtspRestart() throws {
            let server = try RTSPTestServer()
            defer { server.stop() }
            let port = server.port
            // A client playing the stream sees it end soon after the server is killed.
            let client = try Tool.start("ffmpeg", ["-rtsp_transport", "tcp", "-i", server.url, "-f", "null", "-"])
            Thread.sleep(forTimeInterval: 2)
            server.stop()
            #expect(!server.isRunning)
            #expect(client.wait(timeout: 5), "the client still plays 5 s after the server was killed")
            let refused = try Tool.run("ffprobe", ["-rtsp_transport", "tcp", server.url])
            #expect(refused.status != 0)
            try server.restart()
            #expect(server.isRunning && server.port == port)
            let probe = try Tool.run("ffprobe", ["-rtsp_transport", "tcp"] + Tool.streamFields + [server.url])
            #expect(probe.output.contains("h264,640,480"), "\(probe.output)")
        }

        @Test("a clip concatenated three times: 651 frames, timestamps increasing")
        func concatenated() throws {
            let clip = try StreamFixtures.concatenated(StreamFixtures.defaultClip, times: 3, in: scratch.url)
            let probe = try Tool.run(
                "ffprobe", ["-select_streams", "v", "-show_entries", "packet=dts_time", "-of", "csv=p=0", clip])
            let times = probe.output.split(separator: "\n").compactMap { Double($0.split(separator: ",")[0]) }
            #expect(times.count == 651)
            #expect(zip(times, times.dropFirst()).allSatisfy { $0 < $1 })
            #expect(abs((times.last ?? 0) - 24.27) < 0.05, "last at \(times.last ?? 0) s")
        }

        @Test("a stalled server accepts and never answers")
        func stalled() throws {
            let server = try StalledTestServer()
            defer { server.stop() }
            #expect(server.url(scheme: "http", path: "/x") == "http://127.0.0.1:\(server.port)/x")
            let start = Date()
            let probe = try Tool.run("ffprobe", ["-timeout", "1000000", server.url(scheme: "rtsp")], timeout: 10)
            #expect(probe.status != 0)
            #expect(Date().timeIntervalSince(start) >= 0.9)
            #expect(server.acceptedConnections >= 1)
        }

        @Test("HTTP: MJPEG in real time, HLS, and Basic authentication")
        func http() throws {
            let server = try HTTPStreamTestServer(user: "viewer", password: "secret")
            defer { server.stop() }
            let mjpeg = try Tool.run("ffprobe", Tool.streamFields + [server.mjpegURL])
            #expect(mjpeg.output.contains("mjpeg,640,480"), "\(mjpeg.output)")
            let run = try Tool.frames(["-i", server.mjpegURL, "-t", "2"])
            #expect(run.frames >= 45 && run.frames <= 55, "\(run.frames) frames")
            #expect(run.seconds >= 1.7, "2 s of MJPEG in \(run.seconds) s")
            let hls = try Tool.frames(["-i", server.hlsURL])
            #expect(hls.frames == 217)
            let live = try Tool.run("ffprobe", Tool.streamFields + [server.liveHLSURL])
            #expect(live.output.contains("h264,640,480"), "\(live.output)")
            let refused = try Tool.run("ffprobe", [server.url("/private/mjpeg")])
            #expect(refused.output.contains("401"), "\(refused.output)")
            let allowed = try Tool.run(
                "ffprobe", Tool.streamFields + [server.url("/private/mjpeg", user: "viewer", password: "secret")])
            #expect(allowed.output.contains("mjpeg,640,480"), "\(allowed.output)")
            let privateRequests = server.requests.filter { $0.path == "/private/mjpeg" }
            #expect(privateRequests.contains { !$0.authorization } && privateRequests.contains { $0.authorization })
        }

        @Test("hostile HLS playlists: the FIFO they name is noticed when opened, and only then")
        func evilPlaylists() throws {
            let server = try HTTPStreamTestServer()
            defer { server.stop() }
            for path in HTTPStreamTestServer.evilPlaylists {
                let run = try Tool.frames(["-protocol_whitelist", "http,tcp", "-i", server.url(path)])
                #expect(path == "/evil/mixed.m3u8" || run.status != 0, "\(path)")
            }
            Thread.sleep(forTimeInterval: 0.2)
            #expect(!server.secretWasOpened)
            // A reader that opens the file (as FFmpeg does when `file` is allowed) is noticed.
            _ = try Tool.frames(["-protocol_whitelist", "file,http,tcp", "-i", server.url("/evil/index.m3u8")])
            Thread.sleep(forTimeInterval: 0.2)
            #expect(server.secretOpenings == 1)
        }

        @Test("UDP: an MPEG-TS broadcast of H.264 640x480")
        func udp() throws {
            let sender = try UDPStreamTestSender()
            defer { sender.stop() }
            #expect(sender.url == "udp://127.0.0.1:\(sender.port)")
            let probe = try Tool.run("ffprobe", Tool.streamFields + [sender.url])
            #expect(probe.output.contains("h264,640,480"), "\(probe.output)")
            #expect(sender.framesSent > 0)
        }
    }
}

/// Debian's `ffprobe` and `ffmpeg` commands, run with a deadline.
private enum Tool {
    /// Prints each stream as `codec,width,height`.
    static let streamFields = ["-show_entries", "stream=codec_name,width,height", "-of", "csv=p=0"]

    /// A command started in the background.
    final class Running {
        let process: Process
        init(_ process: Process) { self.process = process }

        /// Waits for the command to end; kills it and returns false after `timeout` seconds.
        func wait(timeout: Double) -> Bool {
            let ended = waitUntil(seconds: timeout) { process.isRunning ? nil : true } ?? false
            if !ended { kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
            return ended
        }
    }

    /// Starts the command, its output and error output into `output` (discarded without).
    static func start(_ tool: String, _ arguments: [String], output: URL? = nil) throws -> Running {
        let path = "/usr/bin/\(tool)"
        guard FileManager.default.isExecutableFile(atPath: path) else {
            throw LoopbackServerError("\(path) is missing: run scripts/setup.sh --dev (Debian's ffmpeg)")
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = ["-hide_banner", "-v", "error"] + (tool == "ffmpeg" ? ["-nostdin"] : []) + arguments
        process.standardInput = FileHandle.nullDevice
        let log = output.flatMap { FileHandle(forWritingAtPath: $0.path) } ?? FileHandle.nullDevice
        process.standardOutput = log
        process.standardError = log
        try process.run()
        if output != nil { try log.close() }
        return Running(process)
    }

    /// How a command ended.
    struct Outcome {
        /// Its exit status (-1 when it was killed at its deadline).
        let status: Int32
        /// Its output and error output together.
        let output: String
        /// How long it ran.
        let seconds: Double
        /// The frames an `ffmpeg -progress pipe:1` run decoded (its progress report's last `frame=`).
        var frames: Int {
            let last = output.split(separator: "\n").last { $0.hasPrefix("frame=") }
            return last.flatMap { Int($0.dropFirst("frame=".count)) } ?? 0
        }
    }

    /// Runs the command to its end (killed after `timeout` seconds).
    static func run(_ tool: String, _ arguments: [String], timeout: Double = 30) throws -> Outcome {
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("tool-\(UUID().uuidString).txt")
        _ = FileManager.default.createFile(atPath: output.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: output) }
        let began = Date()
        let running = try start(tool, arguments, output: output)
        let finished = running.wait(timeout: timeout)
        let text = (try? String(contentsOf: output, encoding: .utf8)) ?? ""
        return Outcome(
            status: finished ? running.process.terminationStatus : -1, output: text,
            seconds: Date().timeIntervalSince(began))
    }

    /// Decodes with `ffmpeg ARGUMENTS -f null -`, counting the frames.
    static func frames(_ arguments: [String], timeout: Double = 30) throws -> Outcome {
        try run("ffmpeg", arguments + ["-progress", "pipe:1", "-nostats", "-f", "null", "-"], timeout: timeout)
    }
}
