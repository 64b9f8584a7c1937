import Foundation
import LiteVisionTestSupport
import Testing

/// The command line's registry requests against a server that trickles its answer just above libcurl's 1 KB/s
/// low-speed limit (a real HTTP server on loopback) give up at `--request-timeout`.
@Suite("Transfer deadlines on the command line (real HTTP server on loopback)")
struct TransferDeadlineCLITests {
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
