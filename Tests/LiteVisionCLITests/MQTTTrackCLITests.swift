import Foundation
import LiteVisionTestSupport
import Testing

/// `litevision track --mqtt`: every frame's record published to a real broker (Debian's mosquitto on loopback), as
/// a fleet's tracking processes post their results.
@Suite("litevision track --mqtt", .serialized)
struct MQTTTrackCLITests {
    static let models = ["--model-dir", TestData.path("models")]

    @Test("two files: each frame's --json record reaches PREFIX/N; the password from the environment, never shown")
    func recordsReachTheBroker() async throws {
        let folder = TestData.temporaryDirectory("cli-mqtt")
        defer { try? FileManager.default.removeItem(at: folder) }
        let broker = try MQTTTestBroker(users: ["tracker": "s3cret-pass", "watcher": "watch-pass"])
        let subscriber = try MQTTTestSubscriber(
            broker: broker, filter: "fleet/#", user: "watcher", password: "watch-pass")
        let json = folder.appendingPathComponent("records.jsonl").path
        let cup = TestData.path("video/cup.mp4"), traffic = TestData.path("video/traffic_frames.mp4")
        let url = broker.url(user: "tracker", prefix: "fleet")
        let result = try await onThread {
            try LiteVisionExecutable.run(
                ["track", "--mqtt", url, "--json", json] + Self.models + [
                    cup, traffic,
                ], environment: ["LITEVISION_MQTT_PASSWORD": "s3cret-pass"])
        }
        #expect(result.status == 0, "\(result.errors)")
        let records = try String(contentsOfFile: json, encoding: .utf8).split(separator: "\n").map(String.init)
        #expect(records.count == 237)
        let messages = subscriber.waitForMessages(records.count, timeout: 20)
        // The same records, each under its source's number.
        let published = messages.map { "\($0.topic) \(String(decoding: $0.payload, as: UTF8.self))" }
        let expected = records.map { record in
            (record.contains("\"source\":\"\(cup)\"") ? "fleet/0 " : "fleet/1 ") + record
        }
        #expect(published.sorted() == expected.sorted(), "\(published.count) messages for \(expected.count) records")
        #expect(!(result.output + result.errors).contains("s3cret-pass"))
        withExtendedLifetime(broker) {}  // the broker ran until now
    }

    @Test("a wrong password, a broker that is not there: status 2 before any work, the password never shown")
    func unreachable() throws {
        let broker = try MQTTTestBroker(users: ["tracker": "s3cret-pass"])
        let wrong = try LiteVisionExecutable.run(
            ["track", "--mqtt", broker.url(user: "tracker", password: "wrong-pass")] + Self.models + [
                TestData.path("video/cup.mp4")
            ])
        #expect(wrong.status == 2 && wrong.errors.contains("not authorized"), "\(wrong.errors)")
        #expect(!wrong.errors.contains("wrong-pass"))
        withExtendedLifetime(broker) {}  // the broker ran until now
        let port = try LoopbackPort.unused()
        let absent = try LiteVisionExecutable.run(
            ["track", "--mqtt", "mqtt://127.0.0.1:\(port)/fleet"] + Self.models + [TestData.path("video/cup.mp4")])
        #expect(absent.status == 2 && absent.errors.contains("refused"), "\(absent.errors)")
        #expect(absent.output.isEmpty, "no frame was processed")
    }
}
