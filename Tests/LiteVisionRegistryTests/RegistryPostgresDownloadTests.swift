import Foundation
import LiteVisionModelStore
import LiteVisionRegistry
import LiteVisionTestSupport
import Synchronization
import Testing

/// Downloads that outlive a replica: one stopped gracefully finishes what it sends, one killed is taken over by
/// the other through nginx. Part of the serialized PostgreSQL suite (each test runs its own database).
extension RegistryPostgresTests {
    @Test("SIGTERM during a download: the replica stops listening, finishes sending the file, then exits 0")
    func gracefulShutdownFinishesDownloads() async throws {
        // Chunks from PostgreSQL as the client reads (no copy in memory), to a client that reads slowly.
        let fleet = try await Fleet(replicas: [["--blob-memory", "0"]])
        let replica = fleet.replicas[0]
        #expect(try await Self.publish(Self.coco, as: "coco", through: replica, token: fleet.token).status == 201)
        try await Self.downloadDuringShutdown(from: replica)
        // A replica that stops removes its upload folder; `token create` (no uploads) makes none.
        let temporary = TestData.temporaryDirectory("token-tmp")
        defer { try? FileManager.default.removeItem(at: temporary) }
        let made = try Executables.run(
            Executables.registry, ["token", "create", "--database", fleet.postgres.url, "--role", "read"],
            environment: fleet.postgres.environment.merging(["TMPDIR": temporary.path]) { $1 })
        #expect(made.status == 0, "\(made.errors)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: temporary.path).isEmpty)
        #expect(try FileManager.default.contentsOfDirectory(atPath: fleet.uploads.path).isEmpty)
    }

    @Test("The same for the embedded registry (--data): SIGTERM lets a slow download finish whole")
    func gracefulShutdownEmbedded() async throws {
        let folder = TestData.temporaryDirectory("graceful-data")
        defer { try? FileManager.default.removeItem(at: folder) }
        let server = try RegistryProcess(
            data: folder.appendingPathComponent("data").path, arguments: ["--blob-memory", "0"])
        let token = try server.makePublishToken(in: folder).token
        #expect(try await Self.publish(Self.coco, as: "coco", through: server, token: token).status == 201)
        try await Self.downloadDuringShutdown(from: server)
    }

    /// Starts downloading coco_ssd_mobilenet_v1.tflite from `server` with a small receive buffer, sends SIGTERM
    /// after 64 KB, then reads the rest slowly: the server must stop listening at once, send the whole file, and
    /// exit 0 after it. (SwiftNIO discards writes still queued when a connection closes: a server that closed
    /// right after handing over the response's end lost its last bytes to a slow client.)
    static func downloadDuringShutdown(from server: RegistryProcess) async throws {
        let socket = try LoopbackSocket(port: server.port, receiveBuffer: 4096)
        #expect(socket.send("GET /v1/blobs/\(Self.sha256(Self.coco)) HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"))
        var received = socket.read(count: 65536, seconds: 30)
        #expect(received.count == 65536)

        // 4 MB of which 64 KB are read: most of the file is still in the server when it is told to stop.
        server.signal(SIGTERM)
        do {
            try await Self.poll("the server to stop accepting connections after SIGTERM", seconds: 10) {
                (try? LoopbackSocket(port: server.port)) == nil
            }
        } catch {
            Issue.record("\(error); the server said: \(server.output.suffix(2000))")
        }
        #expect(server.isRunning, "the server ended with a download under way")

        // The rest, 16 KB a millisecond at most (slower than the server sends), then the server ends by itself.
        while true {
            let part = socket.read(count: 16384, seconds: 30)
            if part.isEmpty { break }
            received += part
            try await Task.sleep(for: .milliseconds(1))
        }
        let text = String(decoding: received, as: UTF8.self)
        guard
            let end = received.indices.first(where: {
                received[$0..<min($0 + 4, received.count)] == [13, 10, 13, 10]
            })
        else {
            Issue.record("no response head in \(received.count) bytes")
            return
        }
        #expect(text.hasPrefix("HTTP/1.1 200"))
        #expect(text.lowercased().contains("content-length: \(Self.coco.count)\r\n"))
        #expect(received.count - end - 4 == Self.coco.count)
        #expect(Self.sha256(Data(received[(end + 4)...])) == Self.sha256(Self.coco))
        #expect(server.exitStatus(within: 30) == 0, "\(server.output.suffix(2000))")
    }

    @Test("A replica killed mid-download: the client resumes through nginx on the other one, SHA-256 verified")
    func killedMidDownload() async throws {
        let fleet = try await Fleet(replicas: [["--blob-memory", "0"], ["--blob-memory", "0"]])
        #expect(
            try await Self.publish(Self.coco, as: "coco", through: fleet.replicas[0], token: fleet.token).status == 201)
        // nginx reaches each replica through a relay that holds the first answer past 1.5 MB: the client has
        // 1.5 MB of the file when the replica sending it is killed.
        let relay = try HoldingRelay(upstreams: fleet.replicas.map(\.port), holdAfter: 1_500_000)
        defer { relay.stop() }
        let nginx = try NginxProcess(replicas: relay.ports)
        defer { nginx.stop() }

        let cache = TestData.temporaryDirectory("fleet-client")
        defer { try? FileManager.default.removeItem(at: cache) }
        var downloader = ModelDownloader(cache: ModelCache(root: cache.path))
        downloader.isBackground = true  // waits out a cut transfer and resumes it
        downloader.backgroundTimeLimit = 120
        let model = CustomRemoteModel(
            remoteModelSource: .url(nginx.base + "/v1/blobs/" + Self.sha256(Self.coco), sha256: Self.sha256(Self.coco)))
        let received = ByteCount()
        let download = Task.detached { [downloader] in
            try await onThread {
                try downloader.download(
                    model, progress: { completed, _ in received.value.store(completed, ordering: .relaxed) }
                ).path
            }
        }
        try await Self.poll("an answer held by the relay") { relay.heldServer != nil }
        try await Self.poll("the client to receive the first 1 MB") {
            received.value.load(ordering: .relaxed) > 1_000_000
        }
        let killed = fleet.replicas[relay.heldServer!]
        killed.stop(SIGKILL)

        let installed = try await download.value
        #expect(Self.sha256(try Data(contentsOf: URL(fileURLWithPath: installed))) == Self.sha256(Self.coco))
        // The cut answer (200, short) and the resumed one (206, the rest), both through nginx: their bodies add up
        // to the file once (nothing received twice). nginx's access log: `... "GET PATH HTTP/1.1" STATUS BYTES ...`.
        let answers = nginx.output.split(separator: "\n").filter {
            $0.hasPrefix("127.0.0.1 - - ") && $0.contains("GET /v1/blobs/")
        }
        .map { line in
            line.components(separatedBy: "HTTP/1.1\" ").dropFirst().first?.split(separator: " ").prefix(2).map(
                String.init)
                ?? []
        }
        #expect(answers.map { $0.first } == ["200", "206"], "\(nginx.output)")
        #expect(answers.compactMap { $0.last.flatMap { Int($0) } }.reduce(0, +) == Self.coco.count, "\(answers)")
        #expect(fleet.replicas.filter(\.isRunning).count == 1)
    }
}

/// A byte count shared between a transfer's progress reports and the test.
final class ByteCount: Sendable {
    let value = Atomic<Int64>(0)
}
