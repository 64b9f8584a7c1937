import Foundation

/// A real HTTP server on 127.0.0.1 (Python's http.server on a free port), serving the files of a temporary
/// folder, for the model download tests. Every response carries an `ETag` (from the content) and honours
/// `Range` (with `If-Range`) and `If-None-Match`. Routes: `/ok/<file>` serves the file; `/missing/<file>` answers
/// 404 with a message; `/truncated/<file>` announces the whole length, sends half and closes; `/flaky/<file>`
/// does that the first time only; `/redirect/<file>` redirects to `/ok/<file>`; `/corrupt/<file>` flips a byte
/// in the middle; `/html/<file>` sends an HTML page with status 200; `/stall/<file>` sends 1000 bytes and then
/// nothing for 30 s; `/norange/<file>` ignores `Range`. Any path under `/trickle/` answers 200 and then 1,500
/// bytes a second for as long as the client reads (a server keeping a transfer alive for days); any path under
/// `/hostile-error/` answers 503 with a registry's JSON error whose sentence holds terminal escapes. Every request
/// is logged (``requests``). Never listens beyond loopback; ``stop()`` ends it.
public final class LoopbackModelServer {
    /// The temporary folder whose files are served.
    public let folder: URL
    /// The loopback port the server listens on.
    public let port: Int
    private let process: Process
    private let input = Pipe()

    private static let script = #"""
        import hashlib, http.server, json, os, sys, threading, time
        root = sys.argv[1]
        log_lock = threading.Lock()
        flaky_done = set()
        # Exit when the test closes our standard input (or dies), whatever the signal mask inherited.
        threading.Thread(target=lambda: (sys.stdin.buffer.read(), os._exit(0)), daemon=True).start()
        class Handler(http.server.BaseHTTPRequestHandler):
            def log_message(self, *args): pass
            def do_GET(self):
                if self.path.startswith("/trickle/"):
                    # 1,500 bytes a second, just above libcurl's 1 KB/s low-speed limit, for as long as it is read.
                    self.send_response(200); self.send_header("Content-Type", "application/json"); self.end_headers()
                    try:
                        while True:
                            self.wfile.write(b" " * 150); self.wfile.flush(); time.sleep(0.1)
                    except OSError:
                        return
                if self.path.startswith("/hostile-error/"):
                    text = "\x1b]0;pwned\x07 the registry is down \u009b31m\u202e"
                    body = json.dumps({"error": text}).encode()
                    self.send_response(503); self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(body))); self.end_headers()
                    self.wfile.write(body); return
                parts = self.path.strip("/").split("/")
                if len(parts) != 2 or "/" in parts[1] or parts[1].startswith("."):
                    return self.send_error(400)
                mode, name = parts
                path = os.path.join(root, name)
                rng, if_range, inm = self.headers.get("Range"), self.headers.get("If-Range"), self.headers.get("If-None-Match")
                with log_lock:
                    with open(os.path.join(root, ".requests.log"), "a") as log:
                        log.write(f"{mode} {name} range={rng} if-range={if_range} if-none-match={inm}\n")
                if mode == "missing" or not os.path.isfile(path):
                    return self.send_error(404, "no model called " + name)
                if mode == "redirect":
                    self.send_response(302); self.send_header("Location", "/ok/" + name)
                    self.send_header("Content-Length", "0"); self.end_headers(); return
                data = open(path, "rb").read()
                if mode == "html":
                    data = b"<html><body>Sign in to continue</body></html>" * 40
                if mode == "corrupt":
                    data = bytearray(data); data[len(data) // 2] ^= 0xFF; data = bytes(data)
                etag = '"' + hashlib.sha256(data).hexdigest()[:16] + '"'
                if inm is not None and inm == etag:
                    self.send_response(304); self.send_header("ETag", etag); self.end_headers(); return
                start = 0
                if rng and rng.startswith("bytes=") and mode != "norange" and (if_range is None or if_range == etag):
                    start = int(rng[6:].split("-")[0])
                    if start >= len(data):
                        self.send_response(416); self.send_header("Content-Range", f"bytes */{len(data)}")
                        self.send_header("Content-Length", "0"); self.end_headers(); return
                body = data[start:]
                self.send_response(206 if start > 0 else 200)
                self.send_header("Content-Type", "application/octet-stream")
                self.send_header("ETag", etag)
                self.send_header("Accept-Ranges", "bytes")
                self.send_header("Content-Length", str(len(body)))
                if start > 0:
                    self.send_header("Content-Range", f"bytes {start}-{len(data) - 1}/{len(data)}")
                self.end_headers()
                first_flaky = False
                if mode == "flaky":
                    with log_lock:
                        first_flaky = name not in flaky_done
                        flaky_done.add(name)
                if mode == "truncated" or first_flaky:
                    self.wfile.write(body[: len(body) // 2]); self.wfile.flush()
                    self.close_connection = True
                    return
                if mode == "stall":
                    self.wfile.write(body[:1000]); self.wfile.flush()
                    time.sleep(30)
                    return
                self.wfile.write(body)
        class Server(http.server.ThreadingHTTPServer):
            daemon_threads = True
            def handle_error(self, request, client_address): pass  # clients that hang up on purpose
        server = Server(("127.0.0.1", 0), Handler)
        print(server.server_address[1], flush=True)
        server.serve_forever()
        """#

    /// Starts a server for the files in `folder` (a fresh temporary folder).
    public init(serving files: [String: String]) throws {
        folder = TestData.temporaryDirectory("model-server")
        for (name, source) in files {
            try FileManager.default.copyItem(atPath: source, toPath: folder.appendingPathComponent(name).path)
        }
        let scriptURL = folder.appendingPathComponent(".server.py")
        try Self.script.write(to: scriptURL, atomically: true, encoding: .utf8)
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", scriptURL.path, folder.path]
        let output = Pipe()
        process.standardOutput = output
        process.standardInput = input
        try process.run()
        var line = Data()
        while !line.contains(UInt8(ascii: "\n")) {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            line.append(chunk)
        }
        guard let text = String(data: line, encoding: .utf8),
            let port = Int(text.trimmingCharacters(in: .whitespacesAndNewlines))
        else {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            throw ServerError.noPort
        }
        self.port = port
    }

    /// The requests received so far, one line each: `MODE FILE range=… if-range=… if-none-match=…`.
    public var requests: [String] {
        let log = (try? String(contentsOf: folder.appendingPathComponent(".requests.log"), encoding: .utf8)) ?? ""
        return log.split(separator: "\n").map(String.init)
    }

    /// Replaces the file served as `name` with the file at `source`.
    public func replace(_ name: String, with source: String) throws {
        let target = folder.appendingPathComponent(name)
        try? FileManager.default.removeItem(at: target)
        try FileManager.default.copyItem(atPath: source, toPath: target.path)
    }

    /// The base URL of a route.
    public func base(_ route: String) -> String { "http://127.0.0.1:\(port)/\(route)" }

    /// Stops the server and removes its folder.
    public func stop() {
        if process.isRunning {
            try? input.fileHandleForWriting.close()
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        try? FileManager.default.removeItem(at: folder)
    }

    /// The server did not say which port it listens on.
    public enum ServerError: Error { case noPort }
}
