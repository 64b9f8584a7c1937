import Foundation
import LiteVisionTestSupport
import Testing

/// `label --remote-model` when the registry cannot be asked (stopped, or a proxy in front of it answering 502):
/// the version already downloaded is used, and standard error says so; failures time cannot cure stay errors.
@Suite("label --remote-model falls back on the cached version when the registry cannot be asked", .serialized)
struct RemoteModelOfflineTests {
    /// A proxy whose registry is down: python3 answering 502 to every request on 127.0.0.1:`port`.
    static func badGateway(port: Int) throws -> Process {
        let script = """
            import http.server, os, sys, threading
            threading.Thread(target=lambda: (sys.stdin.buffer.read(), os._exit(0)), daemon=True).start()
            class Handler(http.server.BaseHTTPRequestHandler):
                def log_message(self, *args): pass
                def do_GET(self):
                    body = b"<html><body>502 Bad Gateway</body></html>"
                    self.send_response(502); self.send_header("Content-Length", str(len(body))); self.end_headers()
                    self.wfile.write(body)
            server = http.server.ThreadingHTTPServer(("127.0.0.1", int(sys.argv[1])), Handler)
            print("ready", flush=True)
            server.serve_forever()
            """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", script, String(port)]
        let output = Pipe()
        process.standardOutput = output
        process.standardInput = Pipe()
        try process.run()
        _ = output.fileHandleForReading.availableData  // "ready", or nothing when it could not bind
        return process
    }

    @Test("Registry stopped, then a proxy answering 502: the cached version labels, with a warning; 404 stays an error")
    func cachedVersionOffline() throws {
        let folder = TestData.temporaryDirectory("remote-offline")
        defer { try? FileManager.default.removeItem(at: folder) }
        let data = folder.appendingPathComponent("data").path
        let cache = folder.appendingPathComponent("cache").path
        let server = try RegistryProcess(data: data)
        defer { server.stop() }
        let token = try server.makePublishToken(in: folder)
        let registry = server.base
        let published = try Executables.litevision([
            "models", "publish", "--registry", registry, "--token-file", token.file, "birds",
            TestData.model("bird.tflite"),
        ])
        try #require(published.status == 0, "\(published.errors)")
        let image = TestData.image("bird.jpg")
        func label(_ name: String = "birds") throws -> (status: Int32, output: String, errors: String) {
            try Executables.litevision([
                "label", "--json", "--remote-model", name, "--registry", registry, "--cache", cache, image,
            ])
        }
        let online = try label()
        try #require(online.status == 0, "\(online.errors)")
        #expect(online.output.contains("Grey Heron") && online.errors.isEmpty, "\(online.errors)")

        server.stop()
        let stopped = try label()
        #expect(stopped.status == 0, "\(stopped.errors)")
        #expect(stopped.output == online.output)
        #expect(stopped.errors.contains("warning: using version 1 of birds already downloaded"), "\(stopped.errors)")
        #expect(stopped.errors.contains("could not be reached"), "\(stopped.errors)")

        let proxy = try Self.badGateway(port: server.port)
        defer {
            kill(proxy.processIdentifier, SIGKILL)
            proxy.waitUntilExit()
        }
        let gateway = try label()
        #expect(gateway.status == 0, "\(gateway.errors)")
        #expect(gateway.output == online.output)
        #expect(gateway.errors.contains("warning: using version 1 of birds already downloaded"), "\(gateway.errors)")
        #expect(gateway.errors.contains("HTTP 502"), "\(gateway.errors)")

        // A model never downloaded has nothing to fall back on: the failure is the error.
        let never = try label("herons")
        #expect(never.status == 2 && never.errors.contains("HTTP 502") && !never.errors.contains("warning"))
    }
}
