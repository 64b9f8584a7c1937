import Foundation
import LiteVision
import LiteVisionModelStore
import LiteVisionTestSupport
import Testing

/// A server that trickles its answer just above libcurl's 1 KB/s low-speed limit (a real HTTP server on loopback)
/// is given up at the transfer's deadline instead of holding the client for days.
@Suite("Transfer deadlines: a trickling server is given up (real HTTP server on loopback)")
struct TransferDeadlineTests {
    /// Expects the download of `model` to fail as incomplete for going past its `seconds`-second limit, within
    /// 15 s. It is cancelled after 40 s, so that a missing deadline fails the test instead of hanging it.
    static func expectDeadline(
        _ downloader: RemoteModelDownloader, _ model: CustomRemoteModel, seconds limit: Int
    ) {
        let started = Date()
        let reason = RemoteModelDownloadTests.reason {
            _ = try downloader.download(model, isCancelled: { Date().timeIntervalSince(started) > 40 })
        }
        guard case .incomplete(let detail) = reason else {
            Issue.record("the download of \(model.name) ended with \(String(describing: reason))")
            return
        }
        #expect(detail.contains("limit of \(limit) seconds"), "\(detail)")
        #expect(Date().timeIntervalSince(started) < 15)
    }

    @Test("The registry lookup has a 60-second deadline by default; a model file's transfer one when asked")
    func library() throws {
        #expect(RemoteModelDownloader().requestDeadline == 60)
        #expect(RemoteModelDownloader().downloadDeadline == nil)
        try RemoteModelDownloadTests.withServer { server, downloader in
            var lookup = downloader
            lookup.requestDeadline = 2
            let registryModel = CustomRemoteModel(
                remoteModelSource: RegistryModelSource(registry: server.base("trickle"), name: "birds", readToken: nil))
            Self.expectDeadline(lookup, registryModel, seconds: 2)

            var file = downloader
            file.downloadDeadline = 3
            Self.expectDeadline(file, RemoteModelDownloadTests.model(server, "trickle"), seconds: 3)
        }
    }

    @Test("models download and models list give up at --request-timeout, with the limit named")
    func commandLine() throws {
        let server = try LoopbackModelServer(serving: [:])
        let cache = TestData.temporaryDirectory("deadline-cache")
        defer {
            server.stop()
            try? FileManager.default.removeItem(at: cache)
        }
        let registry = ["--registry", server.base("trickle"), "--request-timeout", "2"]
        for arguments in [["download"] + registry + ["--cache", cache.path, "birds"], ["list"] + registry] {
            let started = Date()
            let result = try LiteVisionExecutable.run(["models"] + arguments)
            #expect(result.status == 1, "\(result.errors)")
            #expect(result.errors.contains("limit of 2 seconds"), "\(result.errors)")
            #expect(Date().timeIntervalSince(started) < 15)
        }
        let refused = try LiteVisionExecutable.run([
            "models", "list", "--registry", server.base("trickle"), "--request-timeout", "0",
        ])
        #expect(refused.status == 64 && refused.errors.contains("--request-timeout"), "\(refused.errors)")
    }
}
