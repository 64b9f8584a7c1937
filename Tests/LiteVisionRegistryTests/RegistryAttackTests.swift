import Foundation
import LiteVisionModelStore
import LiteVisionTestSupport
import Synchronization
import Testing

/// The client side of the hosted models under attack, with real processes on loopback: a malicious registry
/// (a small Python server) that sends an error body forever, a file larger than it announced, and a cache folder
/// that someone else can write to (symbolic links, a FIFO, a record naming a file outside the folder, a tampered
/// `ETag`), a token with a line break, and a download cancelled while another process holds the model's lock.
@Suite("Registry attacks on the client (real processes on loopback)", .serialized)
struct RegistryAttackTests {
    /// A data folder, a running registry on it with bird.tflite published as `birds`, and a temporary folder.
    struct Setup {
        let folder: URL
        let server: RegistryProcess
        let tokenFile: String

        func publish(_ name: String, _ file: String) throws {
            let result = try Executables.litevision(
                ["models", "publish", "--registry", server.base, "--token-file", tokenFile, name, file])
            #expect(result.status == 0, "publish \(name): \(result.errors)")
        }

        func path(_ name: String) -> String { folder.appendingPathComponent(name).path }
    }

    static func withRegistry(_ body: (Setup) throws -> Void) throws {
        let folder = TestData.temporaryDirectory("registry-attacks")
        defer { try? FileManager.default.removeItem(at: folder) }
        let data = folder.appendingPathComponent("data").path
        let server = try RegistryProcess(data: data)
        defer { server.stop(SIGKILL) }
        let made = try Executables.run(Executables.registry, ["token", "create", "--data", data, "--role", "publish"])
        let tokenFile = folder.appendingPathComponent("publish.token").path
        try Data(made.output.utf8).write(to: URL(fileURLWithPath: tokenFile))
        let setup = Setup(folder: folder, server: server, tokenFile: tokenFile)
        try setup.publish("birds", TestData.model("bird.tflite"))
        try body(setup)
    }

    /// The failure of `body`, or nil when it succeeded.
    static func failure<Failure: Error>(_ body: () throws(Failure) -> Void) -> Failure? {
        do {
            try body()
            return nil
        } catch {
            return error
        }
    }

    static func sha256(_ path: String) throws -> String {
        String(try Executables.run("/usr/bin/env", ["sha256sum", path]).output.prefix(64))
    }

    static func contents(_ path: String) -> String? {
        (try? Data(contentsOf: URL(fileURLWithPath: path))).map { String(decoding: $0, as: UTF8.self) }
    }

    static func isSymbolicLink(_ path: String) -> Bool {
        var status = stat()
        return lstat(path, &status) == 0 && (status.st_mode & S_IFMT) == S_IFLNK
    }

    @Test("A registry that sends an error body forever: the HTTP status, at once, with the start of the message")
    func endlessErrorBody() throws {
        let folder = TestData.temporaryDirectory("registry-attacks")
        defer { try? FileManager.default.removeItem(at: folder) }
        let registry = try MaliciousRegistry(mode: "endless-error", model: TestData.model("bird.tflite"))
        defer { registry.stop() }
        var downloader = ModelDownloader(cache: ModelCache(root: folder.appendingPathComponent("c").path))
        downloader.settings.lowSpeedTime = 5
        let model = CustomRemoteModel(remoteModelSource: .registry(registry.base, name: "birds"))
        // Before the fix the body was read until the server stopped, that is never: 20 s is the test's own limit.
        let start = Date()
        let error = Self.failure { () throws(ModelDownloadError) in
            _ = try downloader.download(model, isCancelled: { Date().timeIntervalSince(start) > 20 })
        }
        #expect(error?.reason == .httpStatus(500), "\(String(describing: error))")
        #expect(error?.serverMessage?.hasPrefix("out of order out of order") == true)
        #expect(Date().timeIntervalSince(start) < 10)

        var client = RegistryClient(registry: registry.base)
        client.settings.lowSpeedTime = 5
        let listed = Self.failure { () throws(RegistryRequestError) in _ = try client.list() }
        #expect(listed?.reason == .httpStatus(500), "\(String(describing: listed))")
        #expect(Date().timeIntervalSince(start) < 20)
    }

    @Test("A registry that sends more than the size it announced: stopped at that size, nothing kept")
    func blobLargerThanAnnounced() throws {
        let folder = TestData.temporaryDirectory("registry-attacks")
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = TestData.model("bird.tflite")
        let registry = try MaliciousRegistry(mode: "oversized-blob", model: file)
        defer { registry.stop() }
        let cache = ModelCache(root: folder.appendingPathComponent("c").path)
        let model = CustomRemoteModel(remoteModelSource: .registry(registry.base, name: "birds"))
        let announced = Int64(try FileManager.default.attributesOfItem(atPath: file)[.size] as! Int)
        var received: Int64 = 0
        let error = Self.failure { () throws(ModelDownloadError) in
            _ = try ModelDownloader(cache: cache).download(
                model,
                progress: { completed, _ in
                    received = max(received, completed)
                })
        }
        guard case .invalidRegistryResponse(let detail) = error?.reason else {
            Issue.record("expected the registry's answer refused, got \(String(describing: error))")
            return
        }
        #expect(detail.contains("\(announced) bytes the registry announced"))
        // Before the fix, 500 MB (the downloader's own limit) were written to the cache first.
        #expect(received <= announced, "\(received) bytes kept of \(announced) announced")
        #expect(cache.installed(model) == nil)
        #expect(!FileManager.default.fileExists(atPath: cache.folder(of: model) + "/download.partial"))
    }

    @Test("download.partial is a symbolic link to a file elsewhere: the file is not written, the model is installed")
    func symlinkedPartialFile() throws {
        try Self.withRegistry { setup in
            let cache = ModelCache(root: setup.path("cache"))
            let model = CustomRemoteModel(
                remoteModelSource: .registry(setup.server.base, name: "birds"))
            let sha256 = try Self.sha256(TestData.model("bird.tflite"))
            let folder = cache.folder(of: model)
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            // What another user of a shared cache can leave: a record matching the coming download (so that it is
            // resumed) and the partial file as a link to one of the victim's files, shorter than the model.
            let victim = setup.path("victim.txt")
            try Data("the victim's own file\n".utf8).write(to: URL(fileURLWithPath: victim))
            let record = """
                {"url":"\(setup.server.base)/v1/blobs/\(sha256)","sha256":"\(sha256)","etag":"\\"\(sha256)\\""}
                """
            try Data(record.utf8).write(to: URL(fileURLWithPath: folder + "/download.json"))
            try FileManager.default.createSymbolicLink(
                atPath: folder + "/download.partial", withDestinationPath: victim)

            let installed = try ModelDownloader(cache: cache).download(model)
            // Before the fix the rest of the model was appended to the victim's file (a 206 from its length on).
            #expect(Self.contents(victim) == "the victim's own file\n")
            #expect(installed.sha256 == sha256)
            #expect(!Self.isSymbolicLink(installed.path))
            #expect(try Self.sha256(installed.path) == sha256)
        }
    }

    @Test("download.partial is a FIFO: removed and downloaded again, without waiting for a writer")
    func fifoPartialFile() throws {
        try Self.withRegistry { setup in
            let cache = ModelCache(root: setup.path("cache"))
            let model = CustomRemoteModel(
                remoteModelSource: .registry(setup.server.base, name: "birds"))
            let sha256 = try Self.sha256(TestData.model("bird.tflite"))
            let folder = cache.folder(of: model)
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            let record = """
                {"url":"\(setup.server.base)/v1/blobs/\(sha256)","sha256":"\(sha256)","etag":"\\"\(sha256)\\""}
                """
            try Data(record.utf8).write(to: URL(fileURLWithPath: folder + "/download.json"))
            let fifo = folder + "/download.partial"
            #expect(mkfifo(fifo, 0o644) == 0)
            // Should the download wait on the FIFO (the bug), the other end is opened after 20 s so that the test
            // fails instead of hanging.
            let finished = Mutex(false)
            let rescue = Thread {
                Thread.sleep(forTimeInterval: 20)
                while !finished.withLock({ $0 }) {
                    for flags in [O_WRONLY | O_NONBLOCK, O_RDONLY | O_NONBLOCK] {
                        let descriptor = open(fifo, flags)
                        if descriptor >= 0 { close(descriptor) }
                    }
                    Thread.sleep(forTimeInterval: 0.1)
                }
            }
            rescue.start()
            defer { finished.withLock { $0 = true } }
            let start = Date()
            let installed = try ModelDownloader(cache: cache).download(model)
            #expect(Date().timeIntervalSince(start) < 15)
            #expect(installed.sha256 == sha256)
            #expect(!FileManager.default.fileExists(atPath: folder + "/download.partial"))
        }
    }

    @Test("model.json names a file outside its folder: nothing outside is deleted when a new version is installed")
    func modelRecordOutsideItsFolder() throws {
        try Self.withRegistry { setup in
            let cache = ModelCache(root: setup.path("cache"))
            let model = CustomRemoteModel(
                remoteModelSource: .registry(setup.server.base, name: "birds"))
            let downloader = ModelDownloader(cache: cache)
            _ = try downloader.download(model)
            // <test folder>/cache/remote/<key>/../../../victim is <test folder>/victim; the NUL ends the C path
            // before ".tflite".
            let victim = setup.path("victim")
            try Data("keep me".utf8).write(to: URL(fileURLWithPath: victim))
            let record = #"{"url":"x","sha256":"../../../victim\u0000","size":7}"#
            try Data(record.utf8).write(to: URL(fileURLWithPath: cache.folder(of: model) + "/model.json"))
            #expect(cache.installed(model) == nil)

            try setup.publish("birds", TestData.model("mobilenet_v1_025_float.tflite"))
            let installed = try downloader.download(model)
            #expect(installed.version == 2)
            // Before the fix, installing version 2 unlinked the "previous version" the record named: the victim.
            #expect(Self.contents(victim) == "keep me")
        }
    }

    @Test("client-id's temporary file is a symbolic link: its target is not truncated")
    func clientIDTemporaryFileLink() throws {
        let folder = TestData.temporaryDirectory("registry-attacks")
        defer { try? FileManager.default.removeItem(at: folder) }
        let root = folder.appendingPathComponent("cache").path
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        let victim = folder.appendingPathComponent("victim").path
        try Data("keep me".utf8).write(to: URL(fileURLWithPath: victim))
        // The temporary name is predictable (the process id): another user can put a link there first.
        try FileManager.default.createSymbolicLink(
            atPath: root + "/client-id.\(getpid()).new", withDestinationPath: victim)

        let id = try ModelCache(root: root).clientID()
        #expect(id.count == 32)
        #expect(Self.contents(victim) == "keep me")
        #expect(!Self.isSymbolicLink(root + "/client-id"))
        #expect(Self.contents(root + "/client-id") == id + "\n")
    }

    @Test("A token with a line break is refused before anything is sent, by the downloader and the client")
    func tokenWithLineBreak() throws {
        try Self.withRegistry { setup in
            let token = "lvr_0123\r\nX-Injected: 1"
            let model = CustomRemoteModel(
                remoteModelSource: .registry(setup.server.base, name: "birds", readToken: token))
            let downloaded = Self.failure { () throws(ModelDownloadError) in
                _ = try ModelDownloader(cache: ModelCache(root: setup.path("cache"))).download(model)
            }
            guard case .invalidSource(let detail) = downloaded?.reason else {
                Issue.record("expected the token refused, got \(String(describing: downloaded))")
                return
            }
            #expect(detail.contains("token") && !detail.contains("lvr_0123"))
            let listed = Self.failure { () throws(RegistryRequestError) in
                _ = try RegistryClient(registry: setup.server.base, token: token + "\r").list()
            }
            guard case .invalidSource = listed?.reason else {
                Issue.record("expected the token refused, got \(String(describing: listed))")
                return
            }
        }
    }

    @Test("An ETag with a line break in download.json is never sent as a header: the partial file is dropped")
    func tamperedETagInCache() throws {
        let folder = TestData.temporaryDirectory("registry-attacks")
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = TestData.model("bird.tflite")
        let log = folder.appendingPathComponent("requests.log").path
        let server = try MaliciousRegistry(mode: "record", model: file, log: log)
        defer { server.stop() }
        let cache = ModelCache(root: folder.appendingPathComponent("cache").path)
        let url = server.base + "/bird.tflite"
        let model = CustomRemoteModel(remoteModelSource: .url(url))
        let modelFolder = cache.folder(of: model)
        try FileManager.default.createDirectory(atPath: modelFolder, withIntermediateDirectories: true)
        let record = #"{"url":"\#(url)","etag":"\"x\"\r\nX-Injected: 1"}"#
        try Data(record.utf8).write(to: URL(fileURLWithPath: modelFolder + "/download.json"))
        try Data(try Data(contentsOf: URL(fileURLWithPath: file)).prefix(1000))
            .write(to: URL(fileURLWithPath: modelFolder + "/download.partial"))

        let installed = try ModelDownloader(cache: cache).download(model)
        #expect(installed.sha256 == (try Self.sha256(file)))
        let requests = Self.contents(log) ?? ""
        #expect(requests.contains("GET /bird.tflite"))
        #expect(
            !requests.lowercased().contains("x-injected") && !requests.lowercased().contains("range"), "\(requests)")
    }

    @Test("A download cancelled while another process holds the model's lock ends within about a second")
    func cancelWhileAnotherProcessHoldsTheLock() throws {
        try Self.withRegistry { setup in
            let cache = ModelCache(root: setup.path("cache"))
            let model = CustomRemoteModel(
                remoteModelSource: .registry(setup.server.base, name: "birds"))
            let folder = cache.folder(of: model)
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            // Another process downloading the same model holds the lock (here: for a minute).
            let holder = Process()
            holder.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            let script = """
                import fcntl, sys, time
                f = open(sys.argv[1], "w"); fcntl.flock(f, fcntl.LOCK_EX); print("locked", flush=True); time.sleep(60)
                """
            holder.arguments = ["python3", "-c", script, folder + "/.lock"]
            let output = Pipe()
            holder.standardOutput = output
            try holder.run()
            defer {
                kill(holder.processIdentifier, SIGKILL)
                holder.waitUntilExit()
            }
            _ = output.fileHandleForReading.availableData  // "locked"

            let start = Date()
            let error = Self.failure { () throws(ModelDownloadError) in
                _ = try ModelDownloader(cache: cache).download(
                    model, isCancelled: { Date().timeIntervalSince(start) > 1 })
            }
            #expect(error?.reason == .cancelled, "\(String(describing: error))")
            #expect(Date().timeIntervalSince(start) < 5, "cancelled after \(Date().timeIntervalSince(start)) s")
        }
    }
}

/// A registry that lies (Python's http.server on loopback), in one of three modes:
/// - `endless-error`: every request is answered 500 with a body that never ends;
/// - `oversized-blob`: the model information announces `model` truthfully, and the blob is `model` followed by
///   bytes without end;
/// - `record`: `model` is served at any path (with an `ETag`, honouring `Range`), and every request's head is
///   appended to `log`.
final class MaliciousRegistry {
    let port: Int
    private let process: Process
    private let input = Pipe()

    private static let script = #"""
        import hashlib, http.server, json, os, sys, threading
        mode, model_path, log_path = sys.argv[1], sys.argv[2], sys.argv[3]
        model = open(model_path, "rb").read()
        sha = hashlib.sha256(model).hexdigest()
        threading.Thread(target=lambda: (sys.stdin.buffer.read(), os._exit(0)), daemon=True).start()
        class Handler(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"
            def log_message(self, *args): pass
            def endless(self, chunk):
                try:
                    while True: self.wfile.write(chunk)
                except OSError:
                    pass
            def do_GET(self):
                if mode == "endless-error":
                    self.send_response(500); self.send_header("Content-Type", "text/plain"); self.end_headers()
                    self.endless(b"out of order " * 5000)
                elif mode == "oversized-blob":
                    if self.path.startswith("/v1/models/"):
                        body = json.dumps({"served": {"version": 1, "sha256": sha, "size": len(model)},
                                           "servedBlob": "/v1/blobs/" + sha}).encode()
                        self.send_response(200); self.send_header("Content-Length", str(len(body))); self.end_headers()
                        self.wfile.write(body)
                    else:
                        self.send_response(200); self.send_header("Connection", "close"); self.end_headers()
                        self.wfile.write(model); self.endless(bytes(1 << 16))
                elif mode == "record":
                    with open(log_path, "a") as log: log.write(self.requestline + "\n" + str(self.headers) + "\n")
                    self.send_response(200); self.send_header("ETag", '"%s"' % sha)
                    self.send_header("Content-Length", str(len(model))); self.end_headers()
                    self.wfile.write(model)
        server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        server.daemon_threads = True
        print(server.server_address[1], flush=True)
        server.serve_forever()
        """#

    init(mode: String, model: String, log: String = "/dev/null") throws {
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", Self.script, mode, model, log]
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
            throw RegistryProcessError(message: "the malicious registry did not start")
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
