import Foundation

/// An HTTP proxy on loopback in front of a registry (Python's http.server) that passes model information through
/// and corrupts model files: the first blob it serves is intact, every later one has a byte flipped in the middle.
final class CorruptingProxy {
    let port: Int
    private let process: Process
    private let input = Pipe()

    private static let script = #"""
        import http.client, http.server, os, sys, threading
        upstream_port = int(sys.argv[1])
        served = [0]
        lock = threading.Lock()
        threading.Thread(target=lambda: (sys.stdin.buffer.read(), os._exit(0)), daemon=True).start()
        class Handler(http.server.BaseHTTPRequestHandler):
            def log_message(self, *args): pass
            def do_GET(self):
                connection = http.client.HTTPConnection("127.0.0.1", upstream_port, timeout=30)
                headers = {k: v for k, v in self.headers.items() if k.lower() in ("range", "if-range", "if-none-match", "authorization")}
                connection.request("GET", self.path, headers=headers)
                response = connection.getresponse()
                body = response.read()
                if self.path.startswith("/v1/blobs/") and response.status == 200:
                    with lock:
                        served[0] += 1
                        corrupt = served[0] > 1
                    if corrupt and body:
                        body = bytearray(body); body[len(body) // 2] ^= 0xFF; body = bytes(body)
                self.send_response(response.status)
                for name, value in response.getheaders():
                    if name.lower() not in ("content-length", "connection", "transfer-encoding", "date", "server"):
                        self.send_header(name, value)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)
        server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        print(server.server_address[1], flush=True)
        server.serve_forever()
        """#

    init(upstreamPort: Int) throws {
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", Self.script, String(upstreamPort)]
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
        guard let port = Int(String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
        else {
            throw RegistryProcessError(message: "the corrupting proxy did not start")
        }
        self.port = port
    }

    var base: String { "http://127.0.0.1:\(port)" }

    func stop() {
        try? input.fileHandleForWriting.close()
        process.waitUntilExit()
    }

    deinit { if process.isRunning { process.terminate() } }
}
