import Foundation

/// A live raw H.264 stream served over TCP on 127.0.0.1, as some cameras and encoders serve one (`tcp://HOST:PORT`):
/// a Python server on a free port that, for each connection, runs Debian's `ffmpeg` playing a clip in real time
/// (`-re`) encoded as ``StreamFixtures/rawH264Encoding`` (no container, no timestamps) into the socket, and closes
/// the connection after ``framesPerConnection`` frames, as a camera that drops its clients now and then. The next
/// connection starts the clip again. ``connections`` counts them; ``stop()`` ends it.
public final class TCPStreamTestServer {
    /// The loopback port the server listens on.
    public let port: Int
    /// How many frames each connection gets before the server closes it.
    public let framesPerConnection: Int
    private let folder: URL
    private let process: ServerProcess

    /// Starts the server for `clip` (any video), each connection getting `framesPerConnection` frames; returns once it
    /// listens, or throws within `timeout` seconds.
    public init(clip: String, framesPerConnection: Int, timeout: Double = 10) throws {
        precondition(framesPerConnection > 0, "framesPerConnection must be positive")
        self.framesPerConnection = framesPerConnection
        folder = TestData.temporaryDirectory("tcp-stream-server")
        do {
            let scriptURL = folder.appendingPathComponent("tcp-stream-server.py")
            try Self.script.write(to: scriptURL, atomically: true, encoding: .utf8)
            let ffmpeg =
                [try GeneratedVideo.ffmpeg(), "-nostdin", "-v", "error", "-re", "-i", clip, "-map", "0:v:0"]
                + ["-frames:v", String(framesPerConnection)] + StreamFixtures.rawH264Encoding + ["pipe:1"]
            process = try ServerProcess(
                name: "TCPStreamTestServer", executable: "/usr/bin/env",
                arguments: ["python3", scriptURL.path, folder.appendingPathComponent("connections").path] + ffmpeg,
                log: folder.appendingPathComponent("tcp-stream-server.log"), timeout: timeout)
        } catch {
            try? FileManager.default.removeItem(at: folder)
            throw error
        }
        guard let port = Int(process.firstLine), port > 0 else {
            process.stopNow()
            throw LoopbackServerError("TCPStreamTestServer printed \(process.firstLine) instead of its port")
        }
        self.port = port
    }

    deinit { stop() }

    /// `tcp://127.0.0.1:PORT`.
    public var url: String { "tcp://127.0.0.1:\(port)" }

    /// How many connections the server has accepted so far.
    public var connections: Int {
        ((try? String(contentsOf: folder.appendingPathComponent("connections"), encoding: .utf8)) ?? "").count
    }

    /// Stops the server (dropping a connection being served) and removes its folder.
    public func stop() {
        process.stopNow()
        try? FileManager.default.removeItem(at: folder)
    }

    /// Listens on a free loopback port and prints it; serves one connection at a time, ffmpeg (the arguments after
    /// the connections file, a child that dies with the server: PR_SET_PDEATHSIG) writing into the socket; adds a
    /// character to the connections file per connection; exits when the test closes its standard input.
    private static let script = #"""
        import ctypes, os, signal, socket, subprocess, sys, threading
        connections, command = sys.argv[1], sys.argv[2:]
        libc = ctypes.CDLL("libc.so.6", use_errno=True)
        children = []
        def finish():
            sys.stdin.buffer.read()
            for child in children:
                child.kill()
            os._exit(0)
        threading.Thread(target=finish, daemon=True).start()
        server = socket.socket()
        server.bind(("127.0.0.1", 0))
        server.listen(4)
        print(server.getsockname()[1], flush=True)
        while True:
            connection, _ = server.accept()
            with open(connections, "a") as f:
                f.write("c")
            child = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=connection.fileno(),
                                     preexec_fn=lambda: libc.prctl(1, signal.SIGKILL))  # 1: PR_SET_PDEATHSIG
            children.append(child)
            status = child.wait()
            children.remove(child)
            if status != 0:
                sys.stderr.write(f"ffmpeg exited with status {status}\n")
                sys.stderr.flush()
            try:
                connection.shutdown(socket.SHUT_RDWR)
            except OSError:  # the client left first
                pass
            finally:
                connection.close()
        """#
}
