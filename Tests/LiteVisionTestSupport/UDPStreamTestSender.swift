import Foundation

/// A live MPEG-TS broadcast over UDP to 127.0.0.1, as an encoder or a camera sends it: Debian's `ffmpeg` playing a
/// clip in real time (`-re`), looping for ever, to `udp://127.0.0.1:PORT?pkt_size=1316` (seven TS packets a
/// datagram). The H.264 video is copied, with its parameter sets repeated at every key frame (see
/// ``StreamFixtures/mpegTS(of:in:)``), so that a receiver may join at any time; the audio is left out. Nobody needs
/// to listen: datagrams nobody receives are lost, as on a network. ``stop()`` ends it. With ``Payload/rawH264`` it
/// sends raw H.264 instead, which carries no timestamps.
public final class UDPStreamTestSender {
    /// What is sent.
    public enum Payload: Sendable {
        /// MPEG-TS with the clip's H.264 video, copied.
        case mpegTS
        /// The clip's video encoded again as raw H.264 (``StreamFixtures/rawH264Encoding``): any video clip will do.
        case rawH264
    }

    /// The loopback UDP port the stream is sent to.
    public let port: Int
    private let folder: URL
    private let process: ServerProcess

    /// Starts sending `clip` (for MPEG-TS an MP4 or MOV whose video is H.264) to `port` (by default a free one), and
    /// returns once ffmpeg has sent its first frames; throws when it has not within `timeout` seconds.
    public init(
        clip: String = StreamFixtures.defaultClip, payload: Payload = .mpegTS, port: Int? = nil, timeout: Double = 10
    ) throws {
        self.port = try port ?? LoopbackPort.unused(.udp)
        folder = TestData.temporaryDirectory("udp-sender")
        do {
            let scriptURL = folder.appendingPathComponent("udp-sender.py")
            try Self.script.write(to: scriptURL, atomically: true, encoding: .utf8)
            let progress = folder.appendingPathComponent("progress").path
            let input: String, output: [String]
            switch payload {
            case .mpegTS:
                input = try StreamFixtures.mpegTS(of: clip, in: folder)
                output = ["-c", "copy", "-f", "mpegts"]
            case .rawH264:
                input = clip
                output = StreamFixtures.rawH264Encoding
            }
            let ffmpeg =
                [try GeneratedVideo.ffmpeg(), "-nostdin", "-v", "error", "-re", "-stream_loop", "-1", "-i", input]
                + ["-map", "0:v:0"] + output + ["-progress", progress, "udp://127.0.0.1:\(self.port)?pkt_size=1316"]
            process = try ServerProcess(
                name: "UDPStreamTestSender", executable: "/usr/bin/env",
                arguments: ["python3", scriptURL.path, progress] + ffmpeg,
                log: folder.appendingPathComponent("udp-sender.log"), timeout: timeout)
        } catch {
            try? FileManager.default.removeItem(at: folder)
            throw error
        }
    }

    deinit { stop() }

    /// `udp://127.0.0.1:PORT`.
    public var url: String { "udp://127.0.0.1:\(port)" }

    /// How many frames ffmpeg has sent so far (it reports twice a second).
    public var framesSent: Int {
        let text = (try? String(contentsOf: folder.appendingPathComponent("progress"), encoding: .utf8)) ?? ""
        let last = text.split(separator: "\n").last { $0.hasPrefix("frame=") }
        return last.flatMap { Int($0.dropFirst("frame=".count)) } ?? 0
    }

    /// Stops sending (kills ffmpeg) and removes the folder.
    public func stop() {
        process.stopNow()
        try? FileManager.default.removeItem(at: folder)
    }

    /// Runs ffmpeg (the arguments after the progress file) as a child that dies with it (PR_SET_PDEATHSIG), prints
    /// `ready` once ffmpeg reports a frame sent, and exits when the test closes its standard input or ffmpeg ends.
    private static let script = #"""
        import ctypes, os, re, signal, subprocess, sys, threading, time
        progress, command = sys.argv[1], sys.argv[2:]
        libc = ctypes.CDLL("libc.so.6", use_errno=True)
        child = subprocess.Popen(command, stdin=subprocess.DEVNULL,
                                 preexec_fn=lambda: libc.prctl(1, signal.SIGKILL))  # 1: PR_SET_PDEATHSIG
        def finish():
            sys.stdin.buffer.read()
            child.kill()
            os._exit(0)
        threading.Thread(target=finish, daemon=True).start()
        while True:
            if child.poll() is not None:
                sys.stderr.write(f"ffmpeg exited with status {child.returncode}\n")
                sys.stderr.flush()
                os._exit(1)
            text = open(progress).read() if os.path.exists(progress) else ""
            if any(int(frames) > 0 for frames in re.findall(r"^frame=(\d+)", text, re.M)):
                break
            time.sleep(0.05)
        print("ready", flush=True)
        status = child.wait()
        sys.stderr.write(f"ffmpeg exited with status {status}\n")
        sys.stderr.flush()
        os._exit(1)
        """#
}
