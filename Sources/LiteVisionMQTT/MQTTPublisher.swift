/// Publishes messages to an MQTT broker (QoS 0, not retained) without ever making the caller wait for the network:
/// the sink `litevision track --mqtt` posts each frame's results to.
///
/// ```swift
/// let publisher = try MQTTPublisher("mqtt://tracker:secret@broker:1883/litevision", clientID: "tracking-0")
/// publisher.publish(subtopic: "0", payload: Array(#"{"frame":1}"#.utf8))   // to litevision/0
/// ```
///
/// - `init` connects and waits, at most `connectTimeout` seconds, for the broker to accept the connection, and
///   throws ``MQTTError`` saying why it did not: refused, unknown host, DNS silent, not authorized, TLS, timeout.
/// - After that, libmosquitto's own network thread writes the messages and, when the connection is lost, reconnects
///   with growing delays (1, 4, 9, then every 15 s). While it is disconnected, messages are dropped and counted, not
///   stored: a result that arrives minutes late is of no use to a fleet watching cameras.
/// - The messages handed to libmosquitto and not yet written to the socket are bounded by `queueLimit` messages and
///   16 MiB: a broker that stops reading costs memory up to that bound, then messages are dropped (libmosquitto 2.0
///   bounds only QoS 1 and 2 messages in flight, `MOSQ_OPT_SEND_MAXIMUM`, so the publisher keeps this count itself
///   from the callback that reports each QoS 0 message written).
/// - ``published`` counts messages written to the socket in full (QoS 0 has no acknowledgement: a broker that dies
///   just then loses them); ``dropped`` counts the rest, including those libmosquitto held when a connection ended.
///
/// One publisher may be used from any number of threads. ``close()`` (or the end of the last reference) sends the
/// messages still held, disconnects, stops the network thread and frees the client.
package final class MQTTPublisher: Sendable {
    /// Where the publisher connects, and the topic prefix of everything it publishes (show it with
    /// ``MQTTLocation/masked``).
    package let location: MQTTLocation
    /// The client identifier the broker knows this publisher by; a second client with the same identifier makes the
    /// broker close the first one's connection.
    package let clientID: String
    /// How many messages may wait in libmosquitto for the network at once.
    package let queueLimit: Int
    private let session: MQTTSession

    /// The longest client identifier accepted, in UTF-8 bytes.
    package static let maximumClientIDLength = 128
    /// The default of `queueLimit`: about half a minute of results from a 30 fps camera.
    package static let defaultQueueLimit = 1000

    /// Connects to the broker at `location` (`mqtt://[user[:password]@]host[:port]/topic/prefix` or `mqtts://…`)
    /// as `clientID`, waiting up to `connectTimeout` seconds for the broker to accept; throws ``MQTTError`` saying
    /// why the location is invalid or the connection failed. `password` is the user's password when `location`
    /// names a user without one (so that it need not be on a command line).
    package init(
        _ location: String, clientID: String, password: String? = nil, connectTimeout: Double = 10,
        queueLimit: Int = MQTTPublisher.defaultQueueLimit
    ) throws(MQTTError) {
        var parsed = try MQTTLocation(parsing: location)
        if let password { parsed = try parsed.filling(password: password) }
        guard !clientID.isEmpty, clientID.utf8.count <= Self.maximumClientIDLength,
            !clientID.unicodeScalars.contains(where: { $0.value < 0x20 || (0x7F..<0xA0).contains($0.value) })
        else {
            throw .invalidArgument(
                "the client identifier must be 1 to \(Self.maximumClientIDLength) bytes without control characters")
        }
        guard connectTimeout > 0, connectTimeout <= 3600 else {
            throw .invalidArgument("the connect timeout must be more than 0 and at most 3600 seconds")
        }
        guard (1...1_000_000).contains(queueLimit) else {
            throw .invalidArgument("the queue limit must be from 1 to 1,000,000 messages")
        }
        self.location = parsed
        self.clientID = clientID
        self.queueLimit = queueLimit
        session = try MQTTSession.connect(
            to: parsed, clientID: clientID, timeout: connectTimeout, queueLimit: queueLimit)
    }

    deinit { session.close() }

    /// Publishes `payload` to `PREFIX/subtopic` without waiting for the network; `true` when libmosquitto took it.
    /// `false`, and counted in ``dropped``, while the broker is disconnected, after ``close()``, when the queue is
    /// full, or when `subtopic` is empty, too long, or contains a wildcard (`+`, `#`), a control character or an empty
    /// level.
    @discardableResult
    package func publish(subtopic: String, payload: [UInt8]) -> Bool {
        guard !subtopic.isEmpty, MQTTLocation.topicProblem(subtopic, what: "the subtopic") == nil else {
            session.drop()
            return false
        }
        let topic = location.topicPrefix + "/" + subtopic
        guard topic.utf8.count <= MQTTLocation.maximumTopicLength else {
            session.drop()
            return false
        }
        return session.publish(topic: topic, payload: payload)
    }

    /// Messages written to the broker's connection in full.
    package var published: Int { session.counts.published }

    /// Messages not sent: published while disconnected or closed, refused (queue full, invalid subtopic), or held by
    /// libmosquitto when a connection ended.
    package var dropped: Int { session.counts.dropped }

    /// Messages handed to libmosquitto and not yet written (at most ``queueLimit``).
    package var queued: Int { session.counts.queued }

    /// Whether the broker has accepted the current connection. `false` while libmosquitto reconnects, and after
    /// ``close()``.
    package var isConnected: Bool { session.isConnected }

    /// Writes the messages still held (waiting up to 2 s), disconnects, stops the network thread and frees the
    /// client. Calling it again does nothing; publishing afterwards drops the messages.
    package func close() { session.close() }
}
