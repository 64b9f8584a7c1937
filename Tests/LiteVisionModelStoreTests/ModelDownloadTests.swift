import Foundation
import LiteVision
import LiteVisionModelStore
import LiteVisionTestSupport
import Testing

@Suite("SHA-256 of model files")
struct SHA256Tests {
    @Test("Digests are written as 64 lowercase hexadecimal digits")
    func hexText() {
        #expect(SHA256Digest.hex(of: []) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(
            SHA256Digest.hex(of: Array("abc".utf8))
                == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(SHA256Digest.hex([0x00, 0x0f, 0xa0, 0xff]) == "000fa0ff")
    }

    @Test("Shared model files hash as sha256sum says, and as the built-in catalog says")
    func modelFiles() throws {
        let bird = try [UInt8](Data(contentsOf: URL(fileURLWithPath: TestData.model("bird.tflite"))))
        #expect(SHA256Digest.hex(of: bird) == "79510633209226cbb86b356be5a743e554c01789acd939d73d1fcf8d5b64416f")
        for model in BuiltInModel.allCases {
            let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: TestData.model(model.rawValue))))
            #expect(SHA256Digest.hex(of: bytes) == model.sha256)
        }
    }
}

@Suite("Built-in model download (real HTTP server on loopback)")
struct ModelDownloadTests {
    static let localizer = BuiltInModel.objectLocalizer

    /// Runs `body` with a server serving `files` and a fresh cache folder; stops the server, removes the folders.
    static func withServer(
        _ files: [String: String] = [localizer.rawValue: TestData.model(localizer.rawValue)],
        _ body: (LoopbackModelServer, URL) throws -> Void
    ) throws {
        let server = try LoopbackModelServer(serving: files)
        let cache = TestData.temporaryDirectory("model-cache")
        defer {
            server.stop()
            try? FileManager.default.removeItem(at: cache)
        }
        try body(server, cache)
    }

    /// The reason of the download failure `body` throws.
    static func failure(_ body: () throws -> Void) -> (reason: ModelDownloadError.Reason, text: String)? {
        do {
            try body()
            return nil
        } catch let error as ModelDownloadError {
            return (error.reason, "\(error)")
        } catch let ModelStoreError.download(error) {
            return (error.reason, "\(error)")
        } catch let VisionError.modelDownload(error) {
            return (error.reason, "\(error)")
        } catch {
            return nil
        }
    }

    static func files(in folder: URL) -> [String] {
        (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
    }

    @Test("A missing model is downloaded into the cache, verified, and then detects objects")
    func downloadThenDetect() throws {
        try Self.withServer { server, cache in
            let empty = TestData.temporaryDirectory("no-models")
            defer { try? FileManager.default.removeItem(at: empty) }
            let downloader = ModelDownloader(
                cache: ModelCache(root: cache.appendingPathComponent("nested/models").path),
                baseURL: server.base("ok"))
            #expect(
                downloader.url(of: Self.localizer) == "http://127.0.0.1:\(server.port)/ok/\(Self.localizer.rawValue)")
            let path: String
            if ProcessInfo.processInfo.environment["LITEVISION_MODEL_DIR"] == nil {
                path = try ModelCatalog.path(of: Self.localizer, modelDirectory: empty.path, downloader: downloader)
            } else {
                path = try downloader.download(Self.localizer)
            }
            #expect(path == downloader.cache.root + "/" + Self.localizer.rawValue)
            let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
            #expect(SHA256Digest.hex(of: bytes) == Self.localizer.sha256)
            #expect(Self.files(in: URL(fileURLWithPath: downloader.cache.root)) == [Self.localizer.rawValue])

            // Found in the cache from now on, even with the server gone.
            server.stop()
            #expect(
                try ModelCatalog.path(
                    of: Self.localizer, modelDirectory: empty.path, downloader: downloader,
                    allowDownload: false) == path
                    || ProcessInfo.processInfo.environment["LITEVISION_MODEL_DIR"] != nil)

            let options = ObjectDetectorOptions()
            options.detectorMode = .singleImage
            options.modelDirectory = downloader.cache.root
            let detector = try ObjectDetector(options: options)
            let objects = try detector.results(in: try VisionImage(contentsOfFile: TestData.image("pets.jpg")))
            #expect(objects.count == 1)
        }
    }

    @Test("Redirects are followed")
    func redirect() throws {
        try Self.withServer { server, cache in
            let downloader = ModelDownloader(cache: ModelCache(root: cache.path), baseURL: server.base("redirect"))
            let path = try downloader.download(Self.localizer)
            #expect(Self.files(in: cache) == [Self.localizer.rawValue])
            #expect(FileManager.default.fileExists(atPath: path))
        }
    }

    @Test("Concurrent downloads of the same model leave one good file")
    func concurrent() async throws {
        let server = try LoopbackModelServer(serving: [Self.localizer.rawValue: TestData.model(Self.localizer.rawValue)]
        )
        let cache = TestData.temporaryDirectory("model-cache")
        defer {
            server.stop()
            try? FileManager.default.removeItem(at: cache)
        }
        let downloader = ModelDownloader(cache: ModelCache(root: cache.path), baseURL: server.base("ok"))
        let paths = try await withThrowingTaskGroup(of: String.self) { group in
            for _ in 0..<4 { group.addTask { try downloader.download(Self.localizer) } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(Set(paths).count == 1)
        #expect(server.requests.count == 1, "\(server.requests)")  // the others find it installed once they may look
        #expect(Self.files(in: cache) == [Self.localizer.rawValue])
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: paths[0])))
        #expect(SHA256Digest.hex(of: bytes) == Self.localizer.sha256)
    }

    @Test("HTTP 404: the error names the folders searched, the URL, the SHA-256 and the status")
    func notFound() throws {
        try Self.withServer { server, cache in
            let empty = TestData.temporaryDirectory("no-models")
            defer { try? FileManager.default.removeItem(at: empty) }
            let downloader = ModelDownloader(cache: ModelCache(root: cache.path), baseURL: server.base("missing"))
            do {
                _ = try ModelCatalog.path(of: Self.localizer, modelDirectory: empty.path, downloader: downloader)
                Issue.record("no error")
            } catch {
                guard case .download(let download)? = error as? ModelStoreError else {
                    Issue.record("unexpected \(error)")
                    return
                }
                let folders = download.searchedFolders
                #expect(download.model == Self.localizer)
                #expect(folders.first == empty.path && folders.last == cache.path)
                #expect(download.reason == .httpStatus(404))
                let text = "\(download)"
                for part in [
                    empty.path, cache.path, server.base("missing") + "/" + Self.localizer.rawValue,
                    Self.localizer.sha256, Self.localizer.officialURL, "HTTP 404",
                ] {
                    #expect(text.contains(part), "\(part) missing from: \(text)")
                }
            }
            #expect(Self.files(in: cache).isEmpty)
        }
    }

    @Test("A wrong file: hash mismatch with both hashes, nothing left in the cache")
    func wrongFile() throws {
        try Self.withServer([Self.localizer.rawValue: TestData.model("bird.tflite")]) { server, cache in
            let downloader = ModelDownloader(cache: ModelCache(root: cache.path), baseURL: server.base("ok"))
            let result = Self.failure { _ = try downloader.download(Self.localizer) }
            let birdHash = "79510633209226cbb86b356be5a743e554c01789acd939d73d1fcf8d5b64416f"
            guard case .hashMismatch(let expected, let actual, _)? = result?.reason else {
                Issue.record("unexpected \(String(describing: result))")
                return
            }
            #expect(expected == Self.localizer.sha256 && actual == birdHash)
            #expect(result!.text.contains(Self.localizer.sha256) && result!.text.contains(birdHash))
            #expect(Self.files(in: cache).isEmpty)
        }
    }

    @Test("A server that closes mid-body: incomplete, nothing at the model's path, the bytes kept to resume")
    func truncated() throws {
        try Self.withServer { server, cache in
            let downloader = ModelDownloader(cache: ModelCache(root: cache.path), baseURL: server.base("truncated"))
            let result = Self.failure { _ = try downloader.download(Self.localizer) }
            guard case .incomplete? = result?.reason else {
                Issue.record("unexpected \(String(describing: result))")
                return
            }
            #expect(!Self.files(in: cache).contains(Self.localizer.rawValue))
            #expect(Self.partialSize(downloader) == Self.localizerSize / 2)
        }
    }

    /// The size of the localizer's file.
    static var localizerSize: Int {
        ((try? FileManager.default.attributesOfItem(atPath: TestData.model(localizer.rawValue)))?[.size] as? Int) ?? -1
    }

    /// The bytes of the interrupted download of the localizer waiting in `downloader`'s cache, or nil.
    static func partialSize(_ downloader: ModelDownloader) -> Int? {
        let source = RemoteModelSource.url(downloader.url(of: localizer), sha256: localizer.sha256)
        let folder = downloader.cache.folder(of: CustomRemoteModel(remoteModelSource: source))
        return (try? FileManager.default.attributesOfItem(atPath: folder + "/download.partial"))?[.size] as? Int
    }

    @Test("A download cut mid-body is resumed by the next one: only the rest is fetched, then verified")
    func resumedAfterCut() throws {
        try Self.withServer { server, cache in
            let downloader = ModelDownloader(cache: ModelCache(root: cache.path), baseURL: server.base("flaky"))
            let cut = Self.failure { _ = try downloader.download(Self.localizer) }
            guard case .incomplete? = cut?.reason else {
                Issue.record("the first transfer was not cut: \(String(describing: cut))")
                return
            }
            let half = Self.localizerSize / 2
            #expect(Self.partialSize(downloader) == half)
            let path = try downloader.download(Self.localizer)
            #expect(path == cache.path + "/" + Self.localizer.rawValue)
            let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
            #expect(SHA256Digest.hex(of: bytes) == Self.localizer.sha256)
            let requests = server.requests
            #expect(requests.count == 2)
            #expect(requests.last?.contains("range=bytes=\(half)-") == true, "\(requests)")
            #expect(Self.files(in: cache) == [Self.localizer.rawValue])
        }
    }

    @Test("A download is cancelled within seconds; its bytes are kept and the next download resumes them")
    func cancelled() throws {
        try Self.withServer { server, cache in
            var downloader = ModelDownloader(cache: ModelCache(root: cache.path), baseURL: server.base("stall"))
            downloader.settings.lowSpeedTime = 120  // only the cancellation ends the stalled transfer
            for expected in [1000, 2000] {
                var received: Int64 = 0
                let started = Date()
                let result = Self.failure {
                    _ = try downloader.download(
                        Self.localizer, progress: { completed, _ in received = completed },
                        isCancelled: { received >= Int64(expected) || Date().timeIntervalSince(started) > 20 })
                }
                #expect(result?.reason == .cancelled, "\(String(describing: result))")
                #expect(Date().timeIntervalSince(started) < 10)
                #expect(!Self.files(in: cache).contains(Self.localizer.rawValue))
                #expect(Self.partialSize(downloader) == expected)
            }
            // The second transfer asked only for the bytes after the first 1000.
            let requests = server.requests
            #expect(requests.count == 2 && requests.last?.contains("range=bytes=1000-") == true, "\(requests)")
        }
    }

    @Test("Over the size limit: refused, nothing left in the cache")
    func sizeLimit() throws {
        try Self.withServer { server, cache in
            var downloader = ModelDownloader(cache: ModelCache(root: cache.path), baseURL: server.base("ok"))
            downloader.settings.sizeLimit = 100_000
            let result = Self.failure { _ = try downloader.download(Self.localizer) }
            #expect(result?.reason == .tooLarge(limit: 100_000))
            #expect(Self.files(in: cache).isEmpty)
        }
    }

    @Test("Connection refused: unreachable, with the URL")
    func refused() throws {
        let cache = TestData.temporaryDirectory("model-cache")
        defer { try? FileManager.default.removeItem(at: cache) }
        let base = "http://127.0.0.1:\(try LoopbackPort.unused())"
        let downloader = ModelDownloader(cache: ModelCache(root: cache.path), baseURL: base)
        let result = Self.failure { _ = try downloader.download(Self.localizer) }
        guard case .unreachable? = result?.reason else {
            Issue.record("unexpected \(String(describing: result))")
            return
        }
        #expect(result!.text.contains(base + "/" + Self.localizer.rawValue))
        #expect(Self.files(in: cache).isEmpty)
    }

    @Test("Only HTTP and HTTPS are allowed")
    func otherProtocols() throws {
        let cache = TestData.temporaryDirectory("model-cache")
        defer { try? FileManager.default.removeItem(at: cache) }
        let downloader = ModelDownloader(
            cache: ModelCache(root: cache.path), baseURL: "file://" + TestData.path("models"))
        let result = Self.failure { _ = try downloader.download(Self.localizer) }
        guard case .transfer? = result?.reason else {
            Issue.record("unexpected \(String(describing: result))")
            return
        }
        #expect(Self.files(in: cache).isEmpty)
    }

    @Test("The certificate file setting reaches built-in downloads: an unusable one is refused before any request")
    func certificateFile() throws {
        try Self.withServer { server, cache in
            var downloader = ModelDownloader(cache: ModelCache(root: cache.path), baseURL: server.base("ok"))
            downloader.settings.caFile = cache.path + "/no-such-ca.pem"
            let result = Self.failure { _ = try downloader.download(Self.localizer) }
            guard case .invalidSource(let detail)? = result?.reason else {
                Issue.record("unexpected \(String(describing: result))")
                return
            }
            #expect(detail.contains("certificate file"), "\(detail)")
            #expect(server.requests.isEmpty)
            #expect(Self.files(in: cache).isEmpty)
        }
    }

    @Test("libcurl missing: a clear error naming the library and the package")
    func libcurlMissing() throws {
        let cache = TestData.temporaryDirectory("model-cache")
        defer { try? FileManager.default.removeItem(at: cache) }
        var downloader = ModelDownloader(cache: ModelCache(root: cache.path), baseURL: "http://127.0.0.1:9")
        downloader.settings.libraryPath = "/nonexistent/libcurl.so.4"
        let result = Self.failure { _ = try downloader.download(Self.localizer) }
        guard case .libcurlUnavailable(let library, _)? = result?.reason else {
            Issue.record("unexpected \(String(describing: result))")
            return
        }
        #expect(library == "/nonexistent/libcurl.so.4")
        #expect(result!.text.contains("libcurl4"))
    }
}
