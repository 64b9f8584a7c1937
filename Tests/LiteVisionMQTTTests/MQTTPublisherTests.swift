import Foundation
import LiteVisionMQTT
import LiteVisionTestSupport
import Testing

/// `MQTTPublisher` against Debian's real mosquitto broker on loopback, with `mosquitto_sub` as the independent
/// subscriber: what arrives, the errors of a first connection that fails, reconnection after the broker restarts,
/// and the bound on what waits for a broker that stops reading.
@Suite("MQTT publisher")
struct MQTTPublisherTests {
    /// The cause of the connection failure `make` throws, and the error's text; records an issue when it connects.
    static func failure(
        _ make: () throws -> MQTTPublisher
    ) -> (cause: MQTTError.ConnectionFailure?, text: String) {
        do {
            let publisher = try make()
            Issue.record("connected to \(publisher.location.masked)")
            return (nil, "")
        } catch {
            guard let error = error as? MQTTError, case .connectionFailed(_, let cause) = error else {
                Issue.record("not a connection failure: \(error)")
                return (nil, "\(error)")
            }
            return (cause, error.description)
        }
    }

    /// Waits up to `timeout` seconds for `condition`.
    static func wait(_ timeout: Double, until condition: () -> Bool) -> Bool {
        waitUntil(seconds: timeout, every: 0.01) { condition() ? true : nil } ?? false
    }

    @Test("messages arrive with their topics and payloads, byte for byte; invalid subtopics are dropped and counted")
    func publishes() throws {
        let broker = try MQTTTestBroker()
        let subscriber = try MQTTTestSubscriber(broker: broker, filter: "litevision/#")
        let publisher = try MQTTPublisher(broker.url(prefix: "litevision"), clientID: "test-publishes")
        #expect(publisher.isConnected)
        let record = Array(#"{"source":0,"frame":1,"timestamp":0.033,"latencyMs":4.5,"objects":[]}"#.utf8)
        let sent: [MQTTTestSubscriber.Message] = [
            .init(topic: "litevision/0", payload: record),
            .init(topic: "litevision/1", payload: [0, 1, 0x7F, 0x80, 0xFF, 0x0A, 0x0D]),
            .init(topic: "litevision/2/events", payload: []),
            .init(topic: "litevision/3", payload: Array(repeating: 0x41, count: 100_000)),
        ]
        for message in sent {
            #expect(
                publisher.publish(
                    subtopic: String(message.topic.dropFirst("litevision/".count)), payload: message.payload))
        }
        #expect(subscriber.waitForMessages(sent.count) == sent)
        #expect(Self.wait(5) { publisher.published == sent.count }, "published \(publisher.published)")
        #expect(publisher.dropped == 0 && publisher.queued == 0)

        for subtopic in ["", "+", "a/#", "a//b", "/a", "a\u{0}b", String(repeating: "s", count: 1100)] {
            #expect(!publisher.publish(subtopic: subtopic, payload: [1]), "\(subtopic.prefix(20))")
        }
        #expect(publisher.dropped == 7 && publisher.published == sent.count)

        publisher.close()
        #expect(!publisher.isConnected)
        #expect(!publisher.publish(subtopic: "0", payload: [1]))
        publisher.close()  // idempotent
        #expect(publisher.dropped == 8)
        #expect(subscriber.waitForMessages(sent.count + 1, timeout: 0.5).count == sent.count)
        #expect(broker.log.contains("Client test-publishes disconnected"), "no clean DISCONNECT: \(broker.log)")
    }

    @Test("threads publishing at once: every message arrives once")
    func concurrent() async throws {
        let broker = try MQTTTestBroker()
        let subscriber = try MQTTTestSubscriber(broker: broker, filter: "lv/#")
        let publisher = try MQTTPublisher(broker.url(prefix: "lv"), clientID: "test-concurrent")
        await withTaskGroup(of: Void.self) { group in
            for thread in 0..<4 {
                group.addTask {
                    for index in 0..<100 { publisher.publish(subtopic: "\(thread)", payload: Array("\(index)".utf8)) }
                }
            }
        }
        let received = subscriber.waitForMessages(400, timeout: 20)
        #expect(received.count == 400 && publisher.dropped == 0)
        for thread in 0..<4 {
            let payloads = received.filter { $0.topic == "lv/\(thread)" }.map {
                String(decoding: $0.payload, as: UTF8.self)
            }
            #expect(payloads == (0..<100).map(String.init), "thread \(thread)")
        }
        #expect(Self.wait(5) { publisher.published == 400 })
    }

    @Test("a wrong password is 'not authorized', without the password in the message; the right one publishes")
    func authorization() throws {
        let password = "s3cret:/@%+ é"
        let broker = try MQTTTestBroker(users: ["tracker": password, "viewer": "view-only"])
        let (cause, text) = Self.failure {
            try MQTTPublisher(broker.url(user: "tracker", password: "Wr0ngPassw0rd"), clientID: "test-wrong")
        }
        #expect(cause == .notAuthorized(user: "tracker", code: 5) || cause == .notAuthorized(user: "tracker", code: 4))
        #expect(!text.contains("Wr0ngPassw0rd") && text.contains("tracker:***@127.0.0.1"), "\(text)")
        #expect(text.contains("check the user name and password"), "\(text)")

        let (anonymous, _) = Self.failure { try MQTTPublisher(broker.url(), clientID: "test-anonymous") }
        let anonymousRefusals: [MQTTError.ConnectionFailure] = [
            .notAuthorized(user: nil, code: 5), .notAuthorized(user: nil, code: 4),
        ]
        #expect(anonymous.map(anonymousRefusals.contains) == true, "\(String(describing: anonymous))")

        let subscriber = try MQTTTestSubscriber(
            broker: broker, filter: "litevision/#", user: "viewer", password: "view-only")
        let publisher = try MQTTPublisher(broker.url(user: "tracker", password: password), clientID: "test-right")
        #expect(publisher.location.password == password)
        publisher.publish(subtopic: "0", payload: Array("authorized".utf8))
        #expect(subscriber.waitForMessages(1) == [.init(topic: "litevision/0", payload: Array("authorized".utf8))])
    }

    @Test("nothing listening: refused at once, not after the timeout")
    func refused() throws {
        let port = try LoopbackPort.unused()
        let started = Date()
        let (cause, text) = Self.failure {
            try MQTTPublisher("mqtt://127.0.0.1:\(port)/x", clientID: "test-refused", connectTimeout: 30)
        }
        #expect(cause == .refused(host: "127.0.0.1", port: port), "\(text)")
        #expect(Date().timeIntervalSince(started) < 10)
        #expect(text.contains("nothing accepts connections at 127.0.0.1 port \(port)"), "\(text)")
    }

    @Test("a server that accepts and never answers: timed out after connectTimeout")
    func timedOut() throws {
        let server = try StalledTestServer()
        let (cause, text) = Self.failure {
            try MQTTPublisher("mqtt://127.0.0.1:\(server.port)/x", clientID: "test-stalled", connectTimeout: 1)
        }
        #expect(cause == .timedOut(seconds: 1), "\(text)")
        #expect(server.acceptedConnections >= 1)
    }

    @Test("a host name that does not exist is a DNS error")
    func unknownHost() {
        let (cause, text) = Self.failure {
            try MQTTPublisher("mqtt://no-such-host.invalid:1883/x", clientID: "test-dns", connectTimeout: 20)
        }
        switch cause {
        case .hostNotFound("no-such-host.invalid"), .nameNotResolved(host: "no-such-host.invalid", _): break
        default: Issue.record("\(text)")
        }
    }

    @Test("mqtts:// verifies the broker's certificate: a self-signed one fails the TLS handshake")
    func untrustedCertificate() throws {
        let broker = try MQTTTestBroker(tls: true)
        let started = Date()
        let (cause, text) = Self.failure {
            try MQTTPublisher(broker.url(), clientID: "test-tls", connectTimeout: 20)
        }
        guard case .tls(let detail) = cause else {
            Issue.record("\(text)")
            return
        }
        #expect(detail.contains("certificate verify failed"), "\(text)")
        #expect(Date().timeIntervalSince(started) < 10)

        // And TLS to a broker that does not speak it fails too (the handshake meets MQTT).
        let plain = try MQTTTestBroker()
        let (mismatch, mismatchText) = Self.failure {
            try MQTTPublisher("mqtts://127.0.0.1:\(plain.port)/x", clientID: "test-tls-plain", connectTimeout: 5)
        }
        guard case .tls = mismatch else {
            Issue.record("\(mismatchText)")
            return
        }
    }

    @Test("broker killed and restarted on the same port: messages meanwhile are dropped and counted, later ones arrive")
    func reconnects() throws {
        let broker = try MQTTTestBroker()
        let before = try MQTTTestSubscriber(broker: broker, filter: "litevision/#")
        let publisher = try MQTTPublisher(broker.url(), clientID: "test-reconnects")
        #expect(publisher.publish(subtopic: "0", payload: Array("before".utf8)))
        #expect(before.waitForMessages(1).map(\.payload) == [Array("before".utf8)])

        broker.stop()
        #expect(Self.wait(10) { !publisher.isConnected }, "the lost connection went unnoticed")
        for index in 0..<5 {
            #expect(!publisher.publish(subtopic: "0", payload: Array("lost \(index)".utf8)))
        }
        #expect(publisher.dropped == 5)

        try broker.restart()
        #expect(Self.wait(30) { publisher.isConnected }, "no reconnection within 30 s")
        let after = try MQTTTestSubscriber(broker: broker, filter: "litevision/#")
        for index in 0..<3 { #expect(publisher.publish(subtopic: "1", payload: Array("after \(index)".utf8))) }
        #expect(
            after.waitForMessages(3).map { String(decoding: $0.payload, as: UTF8.self) } == [
                "after 0", "after 1", "after 2",
            ])
        #expect(Self.wait(5) { publisher.published == 4 } && publisher.dropped == 5)

        // Closing while the broker is gone and libmosquitto is between reconnection attempts returns.
        broker.stop()
        #expect(Self.wait(10) { !publisher.isConnected })
        publisher.close()
    }

    @Test("a broker that stops reading: the messages waiting stay within the queue limit, the rest are dropped")
    func boundedQueue() throws {
        let broker = try MQTTTestBroker()
        let publisher = try MQTTPublisher(broker.url(), clientID: "test-bounded", queueLimit: 20)
        broker.pause()
        defer { broker.resume() }
        let payload = [UInt8](repeating: 0x5A, count: 64 * 1024)
        var attempts = 0
        var most = 0
        for _ in 0..<1000 {
            publisher.publish(subtopic: "frames", payload: payload)
            attempts += 1
            most = max(most, publisher.queued)
        }
        #expect(most <= 20, "queued \(most) messages")
        #expect(publisher.dropped > 0, "1000 messages of 64 KiB did not fill a paused broker's queue")
        // Loopback socket buffers take some; the rest was refused without waiting.
        #expect(publisher.published + publisher.queued < 400)

        broker.resume()
        #expect(Self.wait(20) { publisher.queued == 0 }, "\(publisher.queued) still queued")
        #expect(publisher.published + publisher.dropped == attempts)
        #expect(publisher.isConnected)
        #expect(publisher.publish(subtopic: "frames", payload: [1]))
        #expect(Self.wait(5) { publisher.published + publisher.dropped == attempts + 1 })
    }

    @Test("settings out of range are refused before connecting")
    func invalidSettings() {
        func refusal(_ make: () throws -> MQTTPublisher) -> String {
            do {
                let publisher = try make()
                return "accepted \(publisher.clientID)"
            } catch {
                guard let error = error as? MQTTError, case .invalidArgument(let text) = error else {
                    return "\(error)"
                }
                return text
            }
        }
        #expect(refusal { try MQTTPublisher("mqtt://h/x", clientID: "") }.contains("client identifier"))
        #expect(refusal { try MQTTPublisher("mqtt://h/x", clientID: "a\u{0}b") }.contains("client identifier"))
        #expect(refusal { try MQTTPublisher("mqtt://h/x", clientID: "c", connectTimeout: 0) }.contains("timeout"))
        #expect(refusal { try MQTTPublisher("mqtt://h/x", clientID: "c", queueLimit: 0) }.contains("queue limit"))
    }
}
