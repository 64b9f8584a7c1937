import Foundation
import LiteVisionModelManager
import LiteVisionModelStore
import LiteVisionTestSupport
import Synchronization
import Testing

@testable import LiteVisionModelManager

/// ML Kit's ModelManager contract, against a real HTTP server on loopback, each test with its own cache.
@Suite("ModelManager: progress, notifications, shared transfers (real HTTP server on loopback)")
struct ModelManagerTests {
    /// The notifications a manager posts, collected as they arrive.
    final class Recorder: @unchecked Sendable {
        // @unchecked: `posted` is only touched with `lock` held.
        private let lock = NSLock()
        private var posted: [(name: Notification.Name, model: RemoteModel?, error: ModelDownloadError?)] = []
        private var tokens: [NSObjectProtocol] = []

        init(_ manager: ModelManager) {
            for name in [Notification.Name.mlkitModelDownloadDidSucceed, .mlkitModelDownloadDidFail] {
                tokens.append(
                    NotificationCenter.default.addObserver(forName: name, object: manager, queue: nil) { [self] note in
                        let model = note.userInfo?[ModelDownloadUserInfoKey.remoteModel.rawValue] as? RemoteModel
                        let error =
                            note.userInfo?[ModelDownloadUserInfoKey.downloadError.rawValue] as? ModelDownloadError
                        // A new array each time, never an in-place append: a copy handed out by `wait(for:)`
                        // is released outside the lock, and Swift's reference counting is invisible to
                        // ThreadSanitizer, which would then report the in-place append as a race with it.
                        lock.withLock { posted = posted + [(note.name, model, error)] }
                    })
            }
        }

        deinit { tokens.forEach(NotificationCenter.default.removeObserver) }

        /// The notifications so far, waiting up to 10 s for at least `count`.
        func wait(for count: Int) -> [(name: Notification.Name, model: RemoteModel?, error: ModelDownloadError?)] {
            _ = waitUntil(seconds: 10) { lock.withLock { posted.count } >= count ? true : nil }
            return lock.withLock { posted }
        }
    }

    /// Runs `body` with a manager whose downloads of `model` stall after the server's first 1000 bytes (the
    /// low-speed timeout far beyond the test): only a cancel ends them. Synchronous on purpose: an async test can
    /// wait seconds for a cooperative thread on a loaded 2-core machine.
    static func withStalledTransfer(
        _ body: (LoopbackModelServer, ModelManager, Recorder, RemoteModel) throws -> Void
    ) throws {
        let server = try LoopbackModelServer(serving: ["bird.tflite": TestData.model("bird.tflite")])
        let folder = TestData.temporaryDirectory("manager-cache")
        defer {
            server.stop()
            try? FileManager.default.removeItem(at: folder)
        }
        var downloader = ModelDownloader(cache: ModelCache(root: folder.path))
        downloader.settings.lowSpeedTime = 120
        let manager = ModelManager(downloader: downloader)
        try body(server, manager, Recorder(manager), model(server, "stall"))
    }

    static func withManager(
        _ body: (LoopbackModelServer, ModelManager, ModelCache) async throws -> Void
    ) async throws {
        let server = try LoopbackModelServer(serving: ["bird.tflite": TestData.model("bird.tflite")])
        let folder = TestData.temporaryDirectory("manager-cache")
        defer {
            server.stop()
            try? FileManager.default.removeItem(at: folder)
        }
        let cache = ModelCache(root: folder.path)
        var downloader = ModelDownloader(cache: cache)
        downloader.settings.lowSpeedTime = 5
        try await body(server, ModelManager(downloader: downloader), cache)
    }

    static func model(_ server: LoopbackModelServer, _ route: String) -> CustomRemoteModel {
        CustomRemoteModel(
            remoteModelSource: .url(server.base(route) + "/bird.tflite", sha256: TestData.birdModelSHA256))
    }

    @Test("A download reports its bytes, posts success with the model, and the model is then downloaded")
    func downloadSucceeds() async throws {
        try await Self.withManager { server, manager, _ in
            let recorder = Recorder(manager)
            let model = Self.model(server, "ok")
            #expect(!manager.isModelDownloaded(model))
            let progress = manager.download(model, conditions: ModelDownloadConditions())
            let posted = recorder.wait(for: 1)
            #expect(posted.map(\.name) == [.mlkitModelDownloadDidSucceed])
            #expect(posted.first?.model == model && posted.first?.error == nil)
            #expect(manager.isModelDownloaded(model))
            #expect(progress.totalUnitCount == 3_588_463 && progress.completedUnitCount == 3_588_463)

            // The newest is there: success again, at once, without a request.
            let requests = server.requests.count
            manager.download(model, conditions: ModelDownloadConditions())
            #expect(
                recorder.wait(for: 2).map(\.name) == [.mlkitModelDownloadDidSucceed, .mlkitModelDownloadDidSucceed])
            #expect(server.requests.count == requests)
        }
    }

    @Test("A failed download posts the failure with a typed error naming the cause")
    func downloadFails() async throws {
        try await Self.withManager { server, manager, _ in
            let recorder = Recorder(manager)
            let model = Self.model(server, "missing")
            manager.download(model, conditions: ModelDownloadConditions())
            let posted = recorder.wait(for: 1)
            #expect(posted.map(\.name) == [.mlkitModelDownloadDidFail])
            #expect(posted.first?.error?.reason == .httpStatus(404))
            #expect(!manager.isModelDownloaded(model))
        }
    }

    @Test("Concurrent downloads of one model share one transfer and one Progress; cancel stops it")
    func sharedAndCancelled() throws {
        try Self.withStalledTransfer { server, manager, recorder, model in
            let first = manager.download(model, conditions: ModelDownloadConditions())
            let second = manager.download(Self.model(server, "stall"), conditions: ModelDownloadConditions())
            #expect(first === second)
            _ = waitUntil(seconds: 20, every: 0.01) { first.completedUnitCount < 1000 ? nil : true }
            #expect(first.completedUnitCount == 1000)  // the stalling server's first bytes arrived
            let cancelled = Date()
            first.cancel()
            let posted = recorder.wait(for: 1)
            #expect(posted.map(\.name) == [.mlkitModelDownloadDidFail])
            #expect(posted.first?.error?.reason == .cancelled)
            #expect(Date().timeIntervalSince(cancelled) < 5)
            #expect(server.requests.count == 1)
        }
    }

    @Test("A download with other conditions is not folded into the running one: it waits, then runs its own")
    func differentConditions() throws {
        try Self.withStalledTransfer { server, manager, recorder, model in
            let first = manager.download(model, conditions: ModelDownloadConditions())
            let strict = ModelDownloadConditions(allowsCellularAccess: false)
            let second = manager.download(model, conditions: strict)
            #expect(first !== second)
            #expect(manager.download(model, conditions: strict) === second)  // the same conditions share one
            _ = waitUntil(seconds: 20, every: 0.01) { first.completedUnitCount < 1000 ? nil : true }
            #expect(first.completedUnitCount == 1000)
            #expect(server.requests.count == 1)  // the second waits for the first to end
            first.cancel()
            #expect(recorder.wait(for: 1).first?.error?.reason == .cancelled)
            // Then the second runs under its own conditions (this machine is not on a modem), resuming the bytes.
            _ = waitUntil(seconds: 20, every: 0.01) { second.completedUnitCount < 2000 ? nil : true }
            #expect(second.completedUnitCount == 2000)
            #expect(server.requests.last?.contains("range=bytes=1000-") == true, "\(server.requests)")
            second.cancel()
            let posted = recorder.wait(for: 2)
            #expect(posted.map(\.name) == [.mlkitModelDownloadDidFail, .mlkitModelDownloadDidFail])
            #expect(posted.last?.error?.reason == .cancelled)
            #expect(server.requests.count == 2)
        }
    }

    @Test("A waiting download joins by its conditions, and ends at once when cancelled while it waits")
    func waitingDownloads() throws {
        try Self.withStalledTransfer { server, manager, recorder, model in
            let loose = ModelDownloadConditions()
            let strict = ModelDownloadConditions(allowsCellularAccess: false)
            let first = manager.download(model, conditions: loose)
            let second = manager.download(model, conditions: strict)
            // A third call with the first's conditions joins the first, not a new transfer behind the second.
            #expect(manager.download(model, conditions: loose) === first)
            #expect(manager.download(model, conditions: strict) === second)
            _ = waitUntil(seconds: 20, every: 0.01) { first.completedUnitCount < 1000 ? nil : true }
            // The waiting one, cancelled, ends at once although the first still runs.
            let cancelled = Date()
            second.cancel()
            let posted = recorder.wait(for: 1)
            #expect(posted.first?.name == .mlkitModelDownloadDidFail)
            #expect(posted.first?.error?.reason == .cancelled)
            #expect(Date().timeIntervalSince(cancelled) < 5)  // not after the first (stalled until cancelled)
            #expect(server.requests.count == 1)  // it never started a transfer
            #expect(first.completedUnitCount == 1000 && !first.isCancelled)
            first.cancel()
            #expect(recorder.wait(for: 2).last?.error?.reason == .cancelled)
            #expect(server.requests.count == 1)
        }
    }

    @Test("The async variants download and delete")
    func asyncVariants() async throws {
        try await Self.withManager { server, manager, cache in
            let model = Self.model(server, "ok")
            try await manager.downloadModel(model)
            #expect(manager.isModelDownloaded(model))
            try await manager.deleteDownloadedModel(model)
            #expect(!manager.isModelDownloaded(model))
            #expect(!FileManager.default.fileExists(atPath: cache.folder(of: model)))
            do throws(ModelDownloadError) {
                try await manager.downloadModel(Self.model(server, "corrupt"))
                Issue.record("a corrupt download succeeded")
            } catch {
                guard case .hashMismatch = error.reason else {
                    Issue.record("unexpected \(error)")
                    return
                }
            }
        }
    }

    @Test("Deleting with a completion handler calls it once the files are gone")
    func deleteWithCompletion() async throws {
        try await Self.withManager { server, manager, _ in
            let model = Self.model(server, "ok")
            try await manager.downloadModel(model)
            let error: (any Error)? = await withCheckedContinuation { continuation in
                manager.deleteDownloadedModel(model) { continuation.resume(returning: $0) }
            }
            #expect(error == nil)
            #expect(!manager.isModelDownloaded(model))
        }
    }

    @Test("The default route's interface is read from the routing table; modem interfaces are cellular")
    func defaultRoute() {
        let table = """
            Iface\tDestination\tGateway \tFlags\tRefCnt\tUse\tMetric\tMask\t\tMTU\tWindow\tIRTT
            eth0\t0000A8C0\t00000000\t0001\t0\t0\t0\t00FFFFFF\t0\t0\t0
            wwan0\t00000000\t0100A8C0\t0003\t0\t0\t0\t00000000\t0\t0\t0
            """
        #expect(DefaultRoute.interface(routeTable: table) == "wwan0")
        #expect(DefaultRoute.interface(routeTable: "Iface\tDestination\n") == nil)
        #expect(
            DefaultRoute.isCellular("wwan0") && DefaultRoute.isCellular("ppp0") && DefaultRoute.isCellular("wwp0s20u4"))
        #expect(!DefaultRoute.isCellular("eth0") && !DefaultRoute.isCellular("wlan0") && !DefaultRoute.isCellular("lo"))
        // This machine's own table is readable (its default route, if any, is not a modem here).
        if let interface = DefaultRoute.current() { #expect(!DefaultRoute.isCellular(interface)) }
    }
}
