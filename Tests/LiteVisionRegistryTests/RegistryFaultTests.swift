import Foundation
import LiteVisionModelManager
import LiteVisionModelStore
import LiteVisionTestSupport
import Synchronization
import Testing

/// Faults between a registry and its clients, with the real server process on loopback: a server killed in the
/// middle of a download or of a publish, a proxy that corrupts files, a stalled or absent server, a full or
/// read-only cache, TLS, idle and stalled connections, oversized uploads.
@Suite("Registry faults (real server process on loopback)", .serialized)
struct RegistryFaultTests {
    /// A data folder, a running server on it and a publish token file.
    struct Setup {
        let folder: URL
        var server: RegistryProcess
        let token: String
        let tokenFile: String
        var data: String { server.data }

        func publish(_ name: String, _ file: String, registry: String? = nil, extra: [String] = []) throws {
            let result = try Executables.litevision(
                ["models", "publish", "--registry", registry ?? server.base, "--token-file", tokenFile] + extra + [
                    name, file,
                ])
            #expect(result.status == 0, "publish \(name): \(result.errors)")
        }
    }

    static func withSetup(serverArguments: [String] = [], _ body: (inout Setup) throws -> Void) throws {
        let folder = TestData.temporaryDirectory("registry-faults")
        defer { try? FileManager.default.removeItem(at: folder) }
        let data = folder.appendingPathComponent("data").path
        let server = try RegistryProcess(data: data, arguments: serverArguments)
        let (token, tokenFile) = try server.makePublishToken(in: folder)
        var setup = Setup(folder: folder, server: server, token: token, tokenFile: tokenFile)
        defer { setup.server.stop(SIGKILL) }
        try body(&setup)
    }

    /// bird.tflite with a `padding`-byte stored file (24 MiB unless told) added to its associated-files zip: a
    /// valid model, large enough that a transfer is still under way when the server is killed (socket buffers hold
    /// a few MB).
    static func largeModel(in folder: URL, padding: Int = 24 << 20) throws -> String {
        let path = folder.appendingPathComponent("bird-large.tflite").path
        try FileManager.default.copyItem(atPath: TestData.model("bird.tflite"), toPath: path)
        chmod(path, 0o644)
        let script = """
            import random, sys, zipfile
            random.seed(7)
            with zipfile.ZipFile(sys.argv[1], "a", compression=zipfile.ZIP_STORED) as z:
                z.writestr("padding.bin", random.randbytes(int(sys.argv[2])))
            """
        let made = try Executables.run("/usr/bin/env", ["python3", "-c", script, path, String(padding)])
        #expect(made.status == 0, "\(made.errors)")
        return path
    }

    static func sha256(_ path: String) throws -> String {
        let made = try Executables.run("/usr/bin/env", ["sha256sum", path])
        return String(made.output.prefix(64))
    }

    static func size(_ path: String) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: path)[.size]) as? Int) ?? -1
    }

    /// The reason of a download's failure, or nil when it succeeded.
    static func failure(_ body: () throws(ModelDownloadError) -> Void) -> ModelDownloadError? {
        do {
            try body()
            return nil
        } catch {
            return error
        }
    }

    @Test("A server killed in the middle of a transfer: the download resumes after the restart without refetching")
    func resumeAfterServerKill() throws {
        try Self.withSetup { setup in
            let large = try Self.largeModel(in: setup.folder)
            try setup.publish("large", large)
            let cache = ModelCache(root: setup.folder.appendingPathComponent("cache").path)
            var downloader = ModelDownloader(cache: cache)
            downloader.settings.lowSpeedTime = 5
            let model = CustomRemoteModel(
                remoteModelSource: .registry(setup.server.base, name: "large"))
            let server = setup.server
            var killed = false
            let interrupted = Self.failure { () throws(ModelDownloadError) in
                _ = try downloader.download(model) { completed, _ in
                    if completed > 2 << 20 && !killed {
                        server.stop(SIGKILL)
                        killed = true
                    }
                }
            }
            let reason = try #require(interrupted?.reason)
            #expect(
                { if case .incomplete = reason { true } else if case .unreachable = reason { true } else { false } }(),
                "\(reason)")
            let partial = Self.size(cache.folder(of: model) + "/download.partial")
            let total = Self.size(large)
            #expect(partial > 2 << 20 && partial < total, "partial \(partial) of \(total)")
            #expect(cache.installed(model) == nil)

            setup.server = try RegistryProcess(data: setup.data, port: server.port)
            var firstReport: Int64?
            let installed = try downloader.download(model) { completed, _ in
                if firstReport == nil { firstReport = completed }
            }
            // The first report comes with the server's answer, before any byte of it: the partial bytes were
            // kept and only the rest was asked for (a 200 would have reset the count to 0).
            #expect(firstReport == Int64(partial))
            #expect(installed.sha256 == (try Self.sha256(large)) && installed.version == 1)
        }
    }

    /// The notifications a manager posts.
    final class Recorder: @unchecked Sendable {
        // @unchecked: `posted` and `tokens` are only touched with `lock` held.
        private let lock = NSLock()
        private var posted: [(name: Notification.Name, error: ModelDownloadError?)] = []
        private var tokens: [NSObjectProtocol] = []

        init(_ manager: ModelManager) {
            for name in [Notification.Name.mlkitModelDownloadDidSucceed, .mlkitModelDownloadDidFail] {
                let token = NotificationCenter.default.addObserver(forName: name, object: manager, queue: nil) {
                    [self] note in
                    let error = note.userInfo?[ModelDownloadUserInfoKey.downloadError.rawValue] as? ModelDownloadError
                    lock.withLock { posted.append((note.name, error)) }
                }
                lock.withLock { tokens.append(token) }
            }
        }

        deinit { lock.withLock { tokens }.forEach(NotificationCenter.default.removeObserver) }

        func wait(for count: Int) -> [(name: Notification.Name, error: ModelDownloadError?)] {
            _ = waitUntil(seconds: 60) { lock.withLock { posted.count } >= count ? true : nil }
            return lock.withLock { posted }
        }
    }

    @Test("A proxy that corrupts the new version: failure posted, nothing installed, the previous version still runs")
    func corruptingProxy() throws {
        try Self.withSetup { setup in
            try setup.publish("birds", TestData.model("bird.tflite"))
            let proxy = try CorruptingProxy(upstreamPort: setup.server.port)
            defer { proxy.stop() }
            let manager = ModelManager.modelManager()  // the default cache, as labelers read it
            let recorder = Recorder(manager)
            let model = CustomRemoteModel(remoteModelSource: .registry(proxy.base, name: "birds"))
            defer { _ = try? ModelCache().delete(model) }

            manager.download(model, conditions: ModelDownloadConditions())
            #expect(recorder.wait(for: 1).map(\.name) == [.mlkitModelDownloadDidSucceed])
            #expect(manager.isModelDownloaded(model))

            try setup.publish("birds", TestData.model("mobilenet_v1_025_float.tflite"))
            manager.download(model, conditions: ModelDownloadConditions())
            let posted = recorder.wait(for: 2)
            #expect(posted.map(\.name) == [.mlkitModelDownloadDidSucceed, .mlkitModelDownloadDidFail])
            guard case .hashMismatch = posted.last?.error?.reason else {
                Issue.record("expected a hash mismatch, got \(String(describing: posted.last?.error))")
                return
            }
            #expect(manager.isModelDownloaded(model))
            let image = try VisionImage(contentsOfFile: TestData.image("bird.jpg"))
            let remote = try ImageLabeler(options: CustomImageLabelerOptions(remoteModel: model))
            let local = try ImageLabeler(
                options: CustomImageLabelerOptions(localModel: LocalModel(path: TestData.model("bird.tflite"))))
            #expect(try remote.results(in: image) == (try local.results(in: image)))

            let deleted = Mutex<(any Error)??>(nil)
            manager.deleteDownloadedModel(model) { error in deleted.withLock { $0 = .some(error) } }
            _ = waitUntil(seconds: 30, every: 0.01) { deleted.withLock { $0 } }
            #expect(deleted.withLock { $0 } != nil)
            #expect(!manager.isModelDownloaded(model))
            #expect(!FileManager.default.fileExists(atPath: ModelCache().folder(of: model)))
        }
    }

    @Test("404, 401, 403, a refused connection and a stalled server each fail with their own reason, in bounded time")
    func specificFailures() throws {
        try Self.withSetup { setup in
            try setup.publish("secret", TestData.model("bird.tflite"), extra: ["--private"])
            let cache = ModelCache(root: setup.folder.appendingPathComponent("cache").path)
            var downloader = ModelDownloader(cache: cache)
            downloader.settings.lowSpeedTime = 3
            downloader.settings.connectTimeout = 3
            func reason(_ registry: String, _ name: String, token: String? = nil) -> (ModelDownloadError?, Double) {
                let start = Date()
                let model = CustomRemoteModel(
                    remoteModelSource: .registry(registry, name: name, readToken: token))
                let error = Self.failure { () throws(ModelDownloadError) in _ = try downloader.download(model) }
                return (error, Date().timeIntervalSince(start))
            }
            let (missing, _) = reason(setup.server.base, "nothing")
            #expect(missing?.reason == .httpStatus(404) && missing?.serverMessage == "nothing was not found")
            let (anonymous, _) = reason(setup.server.base, "secret")
            #expect(anonymous?.reason == .httpStatus(401) && anonymous?.serverMessage?.contains("private") == true)
            let made = try Executables.run(
                Executables.registry, ["token", "create", "--data", setup.data, "--role", "read", "--model", "other"])
            let (forbidden, _) = reason(
                setup.server.base, "secret", token: made.output.trimmingCharacters(in: .whitespacesAndNewlines))
            #expect(forbidden?.reason == .httpStatus(403))
            let (refused, _) = reason("http://127.0.0.1:1", "birds")
            guard case .unreachable = refused?.reason else {
                Issue.record("refused: \(String(describing: refused))")
                return
            }
            #expect("\(refused!)".contains("could not be reached"))

            // A server that accepts connections and never answers.
            let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            defer { close(listener) }
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            _ = withUnsafeMutablePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                    bind(listener, pointer, length) == 0 && listen(listener, 8) == 0
                        && getsockname(listener, pointer, &length) == 0
                }
            }
            let port = Int(UInt16(bigEndian: address.sin_port))
            let (stalled, seconds) = reason("http://127.0.0.1:\(port)", "birds")
            #expect(stalled != nil && seconds < 20, "\(String(describing: stalled)) after \(seconds) s")
            #expect("\(stalled.map { "\($0)" } ?? "")".contains("could not be reached"))
        }
    }

    @Test("A full or read-only cache: the download fails with the reason and leaves no model and no partial file")
    func fullOrReadOnlyCache() throws {
        try Self.withSetup { setup in
            try setup.publish("birds", TestData.model("bird.tflite"))
            let mountPoint = setup.folder.appendingPathComponent("small-disk").path
            try FileManager.default.createDirectory(atPath: mountPoint, withIntermediateDirectories: true)
            let mounted = try Executables.run(
                "/usr/bin/env", ["mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", mountPoint])
            try #require(mounted.status == 0, "the test mounts a 1 MB tmpfs (it runs as root): \(mounted.errors)")
            defer { _ = try? Executables.run("/usr/bin/env", ["umount", "-l", mountPoint]) }
            let cache = ModelCache(root: mountPoint)
            let model = CustomRemoteModel(
                remoteModelSource: .registry(setup.server.base, name: "birds"))
            let full = Self.failure { () throws(ModelDownloadError) in
                _ = try ModelDownloader(cache: cache).download(model)
            }
            guard case .noSpace = full?.reason else {
                Issue.record("full disk: \(String(describing: full))")
                return
            }
            #expect(cache.installed(model) == nil)
            let left = try FileManager.default.subpathsOfDirectory(atPath: mountPoint)
            #expect(!left.contains { $0.hasSuffix(".tflite") || $0.hasSuffix(".partial") }, "\(left)")

            let remounted = try Executables.run("/usr/bin/env", ["mount", "-o", "remount,ro", mountPoint])
            try #require(remounted.status == 0, "\(remounted.errors)")
            let readOnly = Self.failure { () throws(ModelDownloadError) in
                _ = try ModelDownloader(cache: ModelCache(root: mountPoint + "/models")).download(model)
            }
            guard case .fileSystem(_, let detail) = readOnly?.reason else {
                Issue.record("read-only: \(String(describing: readOnly))")
                return
            }
            #expect(detail.contains("Read-only"), "\(detail)")
        }
    }

    @Test("kill -9 of the server during a publish: after the restart there is no half version and no stray file")
    func killDuringPublish() throws {
        try Self.withSetup { setup in
            let large = try Self.largeModel(in: setup.folder)
            let total = Self.size(large)
            let connection = try LoopbackSocket(port: setup.server.port)
            #expect(
                connection.send(
                    "POST /v1/models/large/versions HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer \(setup.token)\r\n"
                        + "Content-Type: application/octet-stream\r\nContent-Length: \(total)\r\n\r\n"))
            let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: large)))
            #expect(connection.send(Array(bytes.prefix(total / 2))))
            // Wait until the server has written part of the upload, then kill it.
            let blobs = setup.data + "/blobs"
            _ = waitUntil(seconds: 30, every: 0.01) { () -> Bool? in
                let incoming = (try? FileManager.default.contentsOfDirectory(atPath: blobs))?.filter {
                    $0.hasPrefix(".incoming-")
                }
                guard let name = incoming?.first else { return nil }
                return Self.size(blobs + "/" + name) > 1 << 20 ? true : nil
            }
            setup.server.stop(SIGKILL)
            #expect(
                (try FileManager.default.contentsOfDirectory(atPath: blobs)).contains { $0.hasPrefix(".incoming-") },
                "the upload was in progress when the server was killed")

            setup.server = try RegistryProcess(data: setup.data, port: setup.server.port)
            #expect(try FileManager.default.contentsOfDirectory(atPath: blobs).isEmpty)
            let list = try Executables.litevision(["models", "list", "--registry", setup.server.base])
            #expect(list.status == 0 && list.output.contains("(no models)"), "\(list.output)")
            let info = try Executables.litevision(["models", "info", "--registry", setup.server.base, "large"])
            #expect(info.status == 1 && info.errors.contains("HTTP 404"))
        }
    }
}
