import Foundation
import LiteVisionModelStore
import LiteVisionTestSupport
import Testing

/// A deployment that serves model files from a CDN: the registry's host answers model information itself and
/// redirects `/v1/blobs/…` to another host, a caching proxy of the registry (nginx plays both parts here). The
/// client follows the redirect and verifies what it gets; a read token stays with the registry.
@Suite("Model files from a CDN (registry process and nginx on loopback)", .serialized)
struct RegistryCDNTests {
    /// The registry, and nginx with two sites: the front (what clients are configured with) and the CDN.
    final class Setup {
        let folder: URL
        let server: RegistryProcess
        let nginx: NginxProcess
        let cdnPort: Int
        let tokenFile: String

        /// Started, or nothing left behind: a failure stops what had started and removes the folder.
        init() throws {
            let folder = TestData.temporaryDirectory("registry-cdn")
            self.folder = folder
            var started: RegistryProcess?
            do {
                let server = try RegistryProcess(data: folder.appendingPathComponent("data").path)
                started = server
                self.server = server
                tokenFile = try server.makePublishToken(in: folder).file
                let cdnPort = try LoopbackPort.unused()
                self.cdnPort = cdnPort
                nginx = try Self.nginx(registry: "127.0.0.1:\(server.port)", cdnPort: cdnPort)
            } catch {
                started?.stop()
                try? FileManager.default.removeItem(at: folder)
                throw error
            }
        }

        /// nginx with the front site (redirecting model files to the CDN) and the CDN site (caching them).
        static func nginx(registry: String, cdnPort: Int) throws -> NginxProcess {
            try NginxProcess { port, folder in
                // Each line of the log: the site's port, the status, the request line, the token ("-" for none).
                """
                events { worker_connections 64; }
                http {
                    log_format site '$server_port $status "$request" token=$http_authorization';
                    access_log /dev/stdout site;
                    proxy_temp_path \(folder.path)/proxy;
                    client_body_temp_path \(folder.path)/body;
                    proxy_cache_path \(folder.path)/cache keys_zone=cdn:1m;
                    server {
                        listen 127.0.0.1:\(port);
                        location /v1/blobs/ { return 302 http://127.0.0.1:\(cdnPort)$request_uri; }
                        location / { proxy_pass http://\(registry); }
                    }
                    server {
                        listen 127.0.0.1:\(cdnPort);
                        location /v1/blobs/ {
                            proxy_pass http://\(registry);
                            proxy_cache cdn;
                            proxy_cache_valid 200 10m;
                        }
                    }
                }
                """
            }
        }

        func publish(_ name: String, _ file: String, extra: [String] = []) throws {
            let result = try Executables.litevision(
                ["models", "publish", "--registry", server.base, "--token-file", tokenFile] + extra + [
                    name, TestData.model(file),
                ])
            #expect(result.status == 0, "\(result.errors)")
        }

        /// nginx's log lines for the blob of `sha256`: port, status, and whether a token came; waits up to 10 s
        /// for `count` of them (nginx's log reaches the test through a pipe).
        func blobRequests(_ sha256: String, count: Int) -> [String] {
            var lines: [Substring] = []
            _ = waitUntil(seconds: 10) { () -> Bool? in
                lines = nginx.output.split(separator: "\n").filter { $0.contains("GET /v1/blobs/\(sha256) ") }
                return lines.count >= count ? true : nil
            }
            return lines.map { line in
                let parts = line.split(separator: " ")
                return "\(parts[0]) \(parts[1]) " + (line.hasSuffix("token=-") ? "no token" : "token")
            }
        }

        deinit {
            nginx.stop()
            server.stop()
            try? FileManager.default.removeItem(at: folder)
        }
    }

    @Test("The client follows the redirect to the CDN, which fetches the file from the registry once")
    func downloadThroughCDN() throws {
        let setup = try Setup()
        try setup.publish("birds", "bird.tflite")
        let bird = [UInt8](try Data(contentsOf: URL(fileURLWithPath: TestData.model("bird.tflite"))))
        let sha256 = SHA256Digest.hex(of: bird)
        let model = CustomRemoteModel(remoteModelSource: .registry(setup.nginx.base, name: "birds"))
        for device in ["a", "b"] {
            let cache = ModelCache(root: setup.folder.appendingPathComponent("device-\(device)").path)
            let installed = try ModelDownloader(cache: cache).download(model, clientID: device)
            #expect(installed.version == 1)
            #expect(try Data(contentsOf: URL(fileURLWithPath: installed.path)) == Data(bird))
        }
        // Each device: a redirect from the front, the file from the CDN.
        let front = "\(setup.nginx.port)", cdn = "\(setup.cdnPort)"
        #expect(
            setup.blobRequests(sha256, count: 4) == [
                "\(front) 302 no token", "\(cdn) 200 no token", "\(front) 302 no token", "\(cdn) 200 no token",
            ], "\(setup.nginx.output)")
        // The CDN asked the registry once: the registry served the file once.
        let metrics = try Executables.run("/usr/bin/curl", ["-sf", setup.server.base + "/metrics"])
        let served = metrics.output.split(separator: "\n").filter {
            $0.hasPrefix("litevision_registry_downloads_total") && $0.contains("model=\"birds\"")
        }
        #expect(served.count == 1 && served[0].hasSuffix(" 1"), "\(served)")
    }

    @Test("A private model's read token is not sent to the CDN (another origin): the CDN's refusal is the error")
    func tokenStaysWithRegistry() throws {
        let setup = try Setup()
        try setup.publish("secret", "bird.tflite", extra: ["--private"])
        let token = try Executables.litevision([
            "registry", "token", "create", "--data", setup.folder.appendingPathComponent("data").path, "--role", "read",
        ])
        #expect(token.status == 0, "\(token.errors)")
        let readToken = token.output.trimmingCharacters(in: .whitespacesAndNewlines)
        let model = CustomRemoteModel(
            remoteModelSource: .registry(setup.nginx.base, name: "secret", readToken: readToken))
        let cache = ModelCache(root: setup.folder.appendingPathComponent("device").path)
        var failure: ModelDownloadError?
        do {
            _ = try ModelDownloader(cache: cache).download(model)
        } catch {
            failure = error
        }
        // The CDN forwards the request without the token; the registry refuses it (401: a private model's file
        // needs a token), and the client reports that status.
        guard case .httpStatus(let status) = failure?.reason else {
            Issue.record("expected the CDN's refusal, got \(String(describing: failure))")
            return
        }
        #expect(status == 401)
        let sha256 = SHA256Digest.hex(
            of: [UInt8](try Data(contentsOf: URL(fileURLWithPath: TestData.model("bird.tflite")))))
        #expect(
            setup.blobRequests(sha256, count: 2) == [
                "\(setup.nginx.port) 302 token", "\(setup.cdnPort) \(status) no token",
            ],
            "\(setup.nginx.output)")
    }
}
