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
        _ downloader: ModelDownloader, _ model: CustomRemoteModel, seconds limit: Int
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
        #expect(ModelDownloader().settings.requestDeadline == 60)
        #expect(ModelDownloader().settings.downloadDeadline == nil)
        try RemoteModelDownloadTests.withServer { server, downloader in
            var lookup = downloader
            lookup.settings.requestDeadline = 2
            let registryModel = CustomRemoteModel(
                remoteModelSource: .registry(server.base("trickle"), name: "birds", readToken: nil))
            Self.expectDeadline(lookup, registryModel, seconds: 2)

            var file = downloader
            file.settings.downloadDeadline = 3
            Self.expectDeadline(file, RemoteModelDownloadTests.model(server, "trickle"), seconds: 3)
        }
    }
}
