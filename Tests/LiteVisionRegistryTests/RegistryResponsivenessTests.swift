import Foundation
import LiteVisionTestSupport
import Synchronization
import Testing

/// The registry's blocking work (reading back, checking and trial-running an upload, fsyncing and renaming it,
/// SQLite) never holds the threads that answer requests: with the real server process on loopback, `/health`
/// answers promptly while a large model is published.
@Suite("Registry responsiveness while it publishes (real server process on loopback)", .serialized)
struct RegistryResponsivenessTests {
    /// The p99 `/health` latency allowed while a model is published, in seconds.
    static let allowedP99 = 0.1

    /// Publishes under way at once.
    static let concurrentPublishes = 2

    /// Publishes `body` as `name` over a connection of its own (`Connection: close`); the response's status line.
    static func publish(_ body: [UInt8], as name: String, port: Int, token: String) -> String {
        guard let socket = try? LoopbackSocket(port: port) else { return "no connection" }
        let head =
            "POST /v1/models/\(name)/versions HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer \(token)\r\n"
            + "Content-Length: \(body.count)\r\nConnection: close\r\n\r\n"
        guard socket.send(head), socket.send(body) else { return "the upload was cut off" }
        let answer = socket.readUntilClosed(seconds: 300).text
        return String(answer.prefix { $0 != "\r" })
    }

    /// The `q` quantile (0…1) of `values`.
    static func quantile(_ values: [Double], _ q: Double) -> Double {
        let sorted = values.sorted()
        guard !sorted.isEmpty else { return .infinity }
        return sorted[min(sorted.count - 1, max(0, Int((q * Double(sorted.count)).rounded(.up)) - 1))]
    }

    /// The latencies of `/health` requests sent one after another on a kept-alive connection to `port` for as long
    /// as publishes of `model` are under way (upload, check, trial run, fsync, rename, record): two at once, as many
    /// as Swift concurrency has threads here (one per core), so that blocking work done on those threads would leave
    /// none for `/health`. More rounds until 100 requests were measured (5 at most). Synchronous: run it on a thread
    /// of its own.
    static func measureHealth(
        port: Int, publishing model: [UInt8], token: String
    ) throws -> (latencies: [Double], rounds: Int) {
        let health = try LoopbackSocket(port: port)
        var latencies: [Double] = []
        var rounds = 0
        while latencies.count < 100 && rounds < 5 {
            rounds += 1
            let answers = (0..<concurrentPublishes).map { _ in Answer() }
            for answer in answers {
                Thread {
                    answer.set(publish(model, as: "large", port: port, token: token))
                }.start()
            }
            while answers.contains(where: { $0.line == nil }) {
                let start = Date()
                let sent = health.send("GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
                let answer = sent ? health.readResponse(seconds: 10) : nil
                guard answer?.hasPrefix("HTTP/1.1 200") == true else {
                    throw RegistryProcessError(message: "health: \(answer ?? "no answer")")
                }
                latencies.append(Date().timeIntervalSince(start))
                Thread.sleep(forTimeInterval: 0.005)
            }
            for answer in answers where answer.line?.hasPrefix("HTTP/1.1 201") != true {
                throw RegistryProcessError(message: "publish in round \(rounds): \(answer.line ?? "")")
            }
        }
        return (latencies, rounds)
    }

    @Test("While a 100 MB model is published and fsynced, 100+ /health requests answer within 100 ms at p99")
    func healthDuringLargePublish() async throws {
        let folder = TestData.temporaryDirectory("registry-responsive")
        defer { try? FileManager.default.removeItem(at: folder) }
        let server = try RegistryProcess(data: folder.appendingPathComponent("data").path)
        defer { server.stop(SIGKILL) }
        let (token, _) = try server.makePublishToken(in: folder)
        // bird.tflite padded to ~100 MB (a valid model: it passes the check and its trial run).
        let model = try [UInt8](
            Data(contentsOf: URL(fileURLWithPath: try RegistryFaultTests.largeModel(in: folder, padding: 96 << 20))))
        #expect(model.count > 100_000_000)
        // On a thread of its own, not one of the few the other suites' servers in this process wait for.
        let port = server.port
        let measurement = await withCheckedContinuation { continuation in
            Thread {
                continuation.resume(
                    returning: Result { try Self.measureHealth(port: port, publishing: model, token: token) })
            }.start()
        }
        guard case .success(let result) = measurement else {
            Issue.record("\(measurement); the server said: \(server.output)")
            return
        }
        let (latencies, rounds) = result
        let (p50, p99) = (Self.quantile(latencies, 0.5), Self.quantile(latencies, 0.99))
        let measured = String(
            format:
                "%d /health requests during %d rounds of %d publishes of %d bytes: p50 %.1f ms, p99 %.1f ms, max %.1f ms",
            latencies.count, rounds, Self.concurrentPublishes, model.count, p50 * 1000, p99 * 1000,
            (latencies.max() ?? 0) * 1000)
        print("RegistryResponsivenessTests: \(measured)")
        #expect(latencies.count >= 100, "\(measured)")
        #expect(p99 <= Self.allowedP99, "\(measured)")
    }
}

/// The status line of a publish made on another thread, once it is known.
private final class Answer: Sendable {
    private let value = Mutex<String?>(nil)
    var line: String? { value.withLock { $0 } }
    func set(_ line: String) { value.withLock { $0 = line } }
}
