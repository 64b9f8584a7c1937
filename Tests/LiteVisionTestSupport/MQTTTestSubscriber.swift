import Foundation

/// A real MQTT subscriber: Debian's `mosquitto_sub`, subscribed to a topic filter of an ``MQTTTestBroker``, writing
/// each message it receives (topic and payload in hex) to a file the test reads. It is independent of LiteVision's
/// own client. It exits by itself after `lifetime` seconds (`-W`), so that it never outlives a test by long.
public final class MQTTTestSubscriber {
    /// One message received.
    public struct Message: Equatable, Sendable, CustomStringConvertible {
        /// The topic it was published to.
        public let topic: String
        /// Its payload, byte for byte.
        public let payload: [UInt8]
        /// A message of `topic` with `payload`.
        public init(topic: String, payload: [UInt8]) {
            self.topic = topic
            self.payload = payload
        }

        /// `topic: payload`: the payload as text when it is short printable ASCII, else its size and first bytes in
        /// hex (a failed expectation prints it; raw control bytes would garble the test log).
        public var description: String {
            if payload.count <= 200, payload.allSatisfy({ (0x20..<0x7F).contains($0) }) {
                return "\(topic): \(String(decoding: payload, as: UTF8.self))"
            }
            let hex = payload.prefix(16).map { $0 < 16 ? "0" + String($0, radix: 16) : String($0, radix: 16) }
                .joined(separator: " ")
            return "\(topic): \(payload.count) bytes [\(hex)\(payload.count > 16 ? " …" : "")]"
        }
    }

    private let process = Process()
    private let output: URL
    private let folder: URL

    static let tool = "/usr/bin/mosquitto_sub"

    /// Subscribes to `filter` (such as `litevision/#`) on `broker`, as `user` with `password` if given, and returns
    /// once the broker has acknowledged the subscription (SUBACK). Throws when that does not happen within
    /// `timeout` seconds.
    public init(
        broker: MQTTTestBroker, filter: String, user: String? = nil, password: String? = nil, timeout: Double = 10,
        lifetime: Int = 120
    ) throws {
        guard FileManager.default.isExecutableFile(atPath: Self.tool) else {
            throw LoopbackServerError(
                "\(Self.tool) is missing: run scripts/setup.sh --dev (it installs Debian's mosquitto-clients)")
        }
        folder = TestData.temporaryDirectory("mqtt-subscriber")
        output = folder.appendingPathComponent("messages.txt")
        guard FileManager.default.createFile(atPath: output.path, contents: nil),
            let file = FileHandle(forWritingAtPath: output.path)
        else { throw LoopbackServerError("cannot write \(output.path)") }
        defer { try? file.close() }
        var arguments = [
            "-oL", Self.tool, "-d", "-h", "127.0.0.1", "-p", String(broker.port), "-t", filter, "-F", "message %t %x",
            "-W", String(lifetime), "-i", "litevision-test-\(UUID().uuidString.prefix(8))",
        ]
        if let user { arguments += ["-u", user] }
        if let password { arguments += ["-P", password] }
        // stdbuf: mosquitto_sub's debug lines (SUBACK among them) reach the file as they are printed.
        process.executableURL = URL(fileURLWithPath: "/usr/bin/stdbuf")
        process.arguments = arguments
        process.standardOutput = file
        process.standardError = file
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let subscribed = waitUntil(seconds: timeout, every: 0.01) {
            text.contains("received SUBACK") ? true : process.isRunning ? nil : false
        }
        guard subscribed == true else {
            stop()
            throw LoopbackServerError(
                "mosquitto_sub did not subscribe to \(filter) within \(Int(timeout)) s: \(text.suffix(2000))")
        }
    }

    deinit {
        stop()
        try? FileManager.default.removeItem(at: folder)
    }

    /// Everything mosquitto_sub printed so far (its debug lines and the messages).
    public var text: String { (try? String(contentsOf: output, encoding: .utf8)) ?? "" }

    /// The messages received so far, in order. Only whole lines count: mosquitto_sub writes a long message's line in
    /// several pieces, and a line read half-written would be a message with a cut payload.
    public var messages: [Message] {
        let bytes = (try? Data(contentsOf: output)) ?? Data()
        guard let end = bytes.lastIndex(of: UInt8(ascii: "\n")) else { return [] }
        return String(decoding: bytes[..<end], as: UTF8.self).split(separator: "\n").compactMap { line -> Message? in
            let words = line.split(separator: " ", omittingEmptySubsequences: false)
            guard words.count == 3, words[0] == "message" else { return nil }
            var payload: [UInt8] = []
            var hex = words[2].makeIterator()
            while let high = hex.next(), let low = hex.next(), let byte = UInt8(String([high, low]), radix: 16) {
                payload.append(byte)
            }
            return Message(topic: String(words[1]), payload: payload)
        }
    }

    /// The messages received once there are at least `count`, or those there are after `timeout` seconds.
    public func waitForMessages(_ count: Int, timeout: Double = 10) -> [Message] {
        var received: [Message] = []
        _ = waitUntil(seconds: timeout) { () -> Bool? in
            received = messages
            return received.count >= count ? true : nil
        }
        return received
    }

    /// Stops mosquitto_sub (SIGKILL: it inherits the test process's blocked SIGTERM).
    public func stop() {
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }
}
