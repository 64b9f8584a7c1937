import Foundation
import LiteVision
import LiteVisionModelStore
import LiteVisionTestSupport
import Synchronization
import Testing

/// Downloads of remote models from a real HTTP server on loopback, into a fresh cache per test.
@Suite("Remote model downloads: resumable, verified, atomic (real HTTP server on loopback)")
struct RemoteModelDownloadTests {
    static let bird = "bird.tflite"
    static let birdSHA256 = TestData.birdModelSHA256

    /// Runs `body` with a server serving the bird classifier and a downloader into a fresh cache.
    static func withServer(_ body: (LoopbackModelServer, ModelDownloader) throws -> Void) throws {
        let server = try LoopbackModelServer(serving: [bird: TestData.model(bird)])
        let cache = TestData.temporaryDirectory("remote-cache")
        defer {
            server.stop()
            try? FileManager.default.removeItem(at: cache)
        }
        var downloader = ModelDownloader(cache: ModelCache(root: cache.path))
        downloader.settings.lowSpeedTime = 5
        try body(server, downloader)
    }

    static func model(_ server: LoopbackModelServer, _ route: String, sha256: String? = birdSHA256) -> CustomRemoteModel
    {
        CustomRemoteModel(remoteModelSource: .url(server.base(route) + "/" + bird, sha256: sha256))
    }

    /// The reason of the download failure `body` throws.
    static func reason(_ body: () throws -> Void) -> ModelDownloadError.Reason? {
        do {
            try body()
            return nil
        } catch let error as ModelDownloadError {
            return error.reason
        } catch {
            return nil
        }
    }

    static func files(_ folder: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter { $0 != ".lock" }.sorted()
    }

    @Test("A model is downloaded, verified and installed; asked again, it completes at once without a transfer")
    func downloadThenUpToDate() throws {
        try Self.withServer { server, downloader in
            let model = Self.model(server, "ok")
            #expect(downloader.cache.installed(model) == nil)
            var reported: [(Int64, Int64?)] = []
            let installed = try downloader.download(model, progress: { reported.append(($0, $1)) })
            #expect(installed.sha256 == Self.birdSHA256)
            #expect(
                try Data(contentsOf: URL(fileURLWithPath: installed.path))
                    == Data(contentsOf: URL(fileURLWithPath: TestData.model(Self.bird))))
            #expect(downloader.cache.installed(model) == installed)
            #expect(Self.files(downloader.cache.folder(of: model)) == [Self.birdSHA256 + ".tflite", "model.json"])
            #expect(
                reported.last.map { $0.0 == Int64(installed.size) && $0.1 == Int64(installed.size) } == true,
                "\(reported.suffix(3))")
            #expect(server.requests.count == 1)
            _ = try downloader.download(model)
            #expect(server.requests.count == 1)  // the newest is present: no request at all
        }
    }

    @Test("An interrupted transfer resumes where it stopped: the bytes received are not fetched again")
    func resume() throws {
        try Self.withServer { server, downloader in
            let model = Self.model(server, "flaky")
            guard case .incomplete? = Self.reason({ _ = try downloader.download(model) }) else {
                Issue.record("the first transfer should stop half-way")
                return
            }
            let folder = downloader.cache.folder(of: model)
            let partial = try FileManager.default.attributesOfItem(atPath: folder + "/download.partial")[.size] as? Int
            #expect((partial ?? 0) > 0)
            #expect(downloader.cache.installed(model) == nil)
            let installed = try downloader.download(model)
            #expect(installed.sha256 == Self.birdSHA256)
            let second = server.requests.last ?? ""
            #expect(second.contains("range=bytes=\(partial ?? -1)-"), "\(server.requests)")
            #expect(second.contains("if-range=\""))
            #expect(Self.files(folder) == [Self.birdSHA256 + ".tflite", "model.json"])
        }
    }

    @Test("A server that ignores Range sends the whole file again, and the result is still right")
    func serverIgnoresRange() throws {
        try Self.withServer { server, downloader in
            let model = Self.model(server, "norange")
            let folder = downloader.cache.folder(of: model)
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            // A partial download of this model: its first 1000 bytes, correct but unusable by this server.
            let head = try Data(contentsOf: URL(fileURLWithPath: TestData.model(Self.bird))).prefix(1000)
            try head.write(to: URL(fileURLWithPath: folder + "/download.partial"))
            let record = #"{"url":"\#(server.base("norange"))/\#(Self.bird)","sha256":"\#(Self.birdSHA256)"}"#
            try Data(record.utf8).write(to: URL(fileURLWithPath: folder + "/download.json"))
            let installed = try downloader.download(model)
            #expect(installed.sha256 == Self.birdSHA256)
            // The range asked for first, then the whole file once the server answered with all of it.
            #expect(server.requests.count == 2)
            #expect(server.requests.first?.contains("range=bytes=1000-") == true, "\(server.requests)")
            #expect(server.requests.last?.contains("range=None") == true, "\(server.requests)")
        }
    }

    @Test("Corrupted bytes fail the SHA-256 check: nothing installed, nothing left behind")
    func corrupted() throws {
        try Self.withServer { server, downloader in
            let model = Self.model(server, "corrupt")
            guard case .hashMismatch(let expected, _, let count)? = Self.reason({ _ = try downloader.download(model) })
            else {
                Issue.record("expected a hash mismatch")
                return
            }
            #expect(expected == Self.birdSHA256 && count > 0)
            #expect(downloader.cache.installed(model) == nil)
            #expect(Self.files(downloader.cache.folder(of: model)).isEmpty)
        }
    }

    @Test("A version marked by its ETag: 304 when unchanged, a new version replaces the old one, garbage never does")
    func etagVersions() throws {
        try Self.withServer { server, downloader in
            let model = Self.model(server, "ok", sha256: nil)
            let first = try downloader.download(model)
            #expect(first.sha256 == Self.birdSHA256 && first.etag != nil)
            _ = try downloader.download(model)
            #expect(server.requests.last?.contains("if-none-match=\(first.etag!)") == true, "\(server.requests)")
            #expect(downloader.cache.installed(model) == first)

            try server.replace(Self.bird, with: TestData.model("object_labeler.tflite"))
            let second = try downloader.download(model)
            #expect(second.sha256 == "9400671e04685f5277edd3052a311cc51533de9da94255c52ebde1e18484c77c")
            #expect(Self.files(downloader.cache.folder(of: model)) == [second.sha256 + ".tflite", "model.json"])

            // A server now sending an HTML page with status 200: refused, and the previous version stays.
            let page = Self.model(server, "html", sha256: nil)
            guard case .notATFLiteModel? = Self.reason({ _ = try downloader.download(page) }) else {
                Issue.record("an HTML page was accepted as a model")
                return
            }
            #expect(downloader.cache.installed(page) == nil)
            #expect(downloader.cache.installed(model) == second)
        }
    }

    @Test("HTTP errors carry the status and the server's message; nothing is installed")
    func httpError() throws {
        try Self.withServer { server, downloader in
            let model = Self.model(server, "missing")
            do throws(ModelDownloadError) {
                _ = try downloader.download(model)
                Issue.record("no error")
            } catch {
                #expect(error.reason == .httpStatus(404))
                #expect(error.serverMessage?.contains("no model called bird.tflite") == true)
                #expect("\(error)".contains("HTTP 404"))
            }
            #expect(downloader.cache.installed(model) == nil)
        }
    }

    @Test("A cancelled transfer stops within seconds even when the server sends nothing, and can resume")
    func cancel() throws {
        try Self.withServer { server, downloader in
            let model = Self.model(server, "stall")
            let started = Date()
            let reason = Self.reason {
                _ = try downloader.download(model, isCancelled: { Date().timeIntervalSince(started) > 0.5 })
            }
            #expect(reason == .cancelled)
            #expect(Date().timeIntervalSince(started) < 5)
            let folder = downloader.cache.folder(of: model)
            #expect(Self.files(folder) == ["download.json", "download.partial"])
        }
    }

    @Test("Concurrent downloads of one model share one transfer")
    func concurrent() async throws {
        let server = try LoopbackModelServer(serving: [Self.bird: TestData.model(Self.bird)])
        let cache = TestData.temporaryDirectory("remote-cache")
        defer {
            server.stop()
            try? FileManager.default.removeItem(at: cache)
        }
        let downloader = ModelDownloader(cache: ModelCache(root: cache.path))
        let model = Self.model(server, "ok")
        let paths = try await withThrowingTaskGroup(of: String.self) { group in
            for _ in 0..<4 { group.addTask { try downloader.download(model).path } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(Set(paths).count == 1)
        #expect(server.requests.count == 1)
    }

    @Test("Deleting a downloaded model removes every file of it")
    func delete() throws {
        try Self.withServer { server, downloader in
            let model = Self.model(server, "ok")
            _ = try downloader.download(model)
            try downloader.cache.delete(model)
            #expect(downloader.cache.installed(model) == nil)
            #expect(!FileManager.default.fileExists(atPath: downloader.cache.folder(of: model)))
            try downloader.cache.delete(model)  // deleting an absent model is not an error
        }
    }

    @Test("Remote models with equal sources are equal and share a cache folder")
    func identity() {
        let a = CustomRemoteModel(remoteModelSource: .url("https://example.com/m/birds.tflite?v=1"))
        let b = CustomRemoteModel(remoteModelSource: .url("https://example.com/m/birds.tflite?v=1"))
        let c = CustomRemoteModel(remoteModelSource: .url("https://example.com/m/birds.tflite?v=2"))
        #expect(a == b && a.hashValue == b.hashValue && a != c)
        #expect(a.name == "birds.tflite")
        let cache = ModelCache(root: "/cache")
        #expect(cache.folder(of: a) == cache.folder(of: b) && cache.folder(of: a) != cache.folder(of: c))
    }
}

@Suite("Labelers and detectors with a remote model (real HTTP server on loopback)")
struct RemoteModelFeatureTests {
    @Test("Refused until downloaded; then the labels are exactly those of the local file")
    func labelWithRemoteModel() throws {
        let server = try LoopbackModelServer(serving: ["bird.tflite": TestData.model("bird.tflite")])
        let cache = ModelCache()  // the default cache, as a labeler reads it; the model is unique to this server
        let model = CustomRemoteModel(
            remoteModelSource: .url(server.base("ok") + "/bird.tflite", sha256: RemoteModelDownloadTests.birdSHA256))
        defer {
            try? cache.delete(model)
            server.stop()
        }
        do {
            _ = try ImageLabeler(options: CustomImageLabelerOptions(remoteModel: model))
            Issue.record("a labeler was made from a remote model that is not downloaded")
        } catch {
            guard case .remoteModelNotDownloaded(let name) = error else {
                Issue.record("unexpected \(error)")
                return
            }
            #expect(name == "bird.tflite")
            #expect("\(error)".contains("download it first"))
        }
        let detectorOptions = CustomObjectDetectorOptions(remoteModel: model)
        detectorOptions.shouldEnableClassification = true
        detectorOptions.modelDirectory = TestData.path("models")
        #expect(throws: VisionError.self) { try ObjectDetector(options: detectorOptions) }

        _ = try ModelDownloader(cache: cache).download(model)
        let image = try VisionImage(contentsOfFile: TestData.image("bird.jpg"))
        let remote = try ImageLabeler(options: CustomImageLabelerOptions(remoteModel: model))
        let local = try ImageLabeler(
            options: CustomImageLabelerOptions(localModel: LocalModel(path: TestData.model("bird.tflite"))))
        let labels = try remote.results(in: image)
        #expect(!labels.isEmpty)
        #expect(labels == (try local.results(in: image)))
        #expect(CustomImageLabelerOptions(remoteModel: model).localModel == nil)

        detectorOptions.detectorMode = .singleImage
        let objects = try ObjectDetector(options: detectorOptions).results(in: image)
        #expect(objects.count == 1)
    }
}
