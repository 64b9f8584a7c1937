import CMosquitto
import LiteVisionSystem
import Synchronization

/// One libmosquitto client, and what its network thread reports: the state of the connection, the messages handed
/// to libmosquitto and not yet written to the socket, and the counters. ``MQTTPublisher`` is its public face.
///
/// Threads: libmosquitto's own network thread (`mosquitto_loop_start`) does all network I/O, reconnects with backoff,
/// and calls the callbacks below; publishing and closing come from any thread. Both sides take `lock`. Lock order:
/// ``publish(topic:payload:)`` holds `lock` while it calls `mosquitto_publish`, which takes only libmosquitto's
/// `mid_mutex`, `out_packet_mutex` and `log_callback_mutex` (libmosquitto 2.0); the network thread calls the
/// callbacks holding `callback_mutex` and `current_out_packet_mutex`, and never holds those three while it waits
/// for `lock`, so the two cannot deadlock. The log callback, which `mosquitto_publish` may call on the publishing
/// thread, takes `errorLog`'s own lock, never `lock`. `close()` holds no lock while it waits for the network thread.
final class MQTTSession: @unchecked Sendable {
    // @unchecked: every mutable stored property (`handle`, `phase`, `firstCall`, `connected`, `closed`, `queued`,
    // `queuedBytes`, `published`, `dropped`) is read and written only with `lock` held; `errorLog` is a Mutex.
    // libmosquitto's network thread reaches this object only through the callbacks, which take `lock` too.
    private let lock = PosixLock()
    private let location: MQTTLocation
    private let queueLimit: Int
    /// The client; `nil` once closed (or handed to an abandoned first call, which destroys it).
    private var handle: OpaquePointer?
    private var phase = Phase.connecting
    private var firstCall = FirstCall.running
    private var connected = false
    private var closed = false
    /// Size of each message libmosquitto holds but has not yet written, by message ID.
    private var queued: [Int32: Int] = [:]
    private var queuedBytes = 0
    private var published = 0
    private var dropped = 0
    /// The last error libmosquitto logged (OpenSSL's reason for a failed handshake, for one).
    private let errorLog = Mutex<String?>(nil)

    /// Seconds between the pings that keep an idle connection open, and within which a silent broker is noticed.
    static let keepalive: Int32 = 30
    /// Most bytes of messages held for writing at once, whatever ``MQTTPublisher/queueLimit`` allows (16 MiB).
    static let queuedBytesLimit = 16 << 20
    /// Reconnection delays: 1 s, then growing as the square of the attempt (4, 9 s), at most 15 s.
    static let reconnectDelay: (first: UInt32, most: UInt32) = (1, 15)

    /// Where the first connection stands.
    private enum Phase {
        case connecting
        case connected
        case failed(MQTTError.ConnectionFailure)
    }

    /// The thread that runs `mosquitto_connect_async` (which resolves the host name without a timeout of its own)
    /// and starts the network thread: still running, finished (`status` and `code`: `mosquitto_connect_async`'s
    /// status and `errno`), or given up on by ``connect(to:clientID:timeout:queueLimit:)`` (it then destroys the
    /// client itself).
    private enum FirstCall {
        case running
        case finished(status: Int32, code: Int32, loopStarted: Bool)
        case abandoned
    }

    /// A session for `location`, not yet with a client.
    private init(location: MQTTLocation, queueLimit: Int) {
        self.location = location
        self.queueLimit = queueLimit
    }

    // MARK: Connecting

    /// A client for `location` whose network thread runs and whose first connection was accepted within `timeout`
    /// seconds; throws why not.
    static func connect(
        to location: MQTTLocation, clientID: String, timeout: Double, queueLimit: Int
    ) throws(MQTTError) -> MQTTSession {
        try MosquittoLibrary.initialize()
        let session = MQTTSession(location: location, queueLimit: queueLimit)
        guard let handle = mosquitto_new(clientID, true, Unmanaged.passUnretained(session).toOpaque()) else {
            throw .systemResource("libmosquitto could not make a client (\(errorDescription(errno)))")
        }
        do {
            try session.configure(handle)
        } catch {
            mosquitto_destroy(handle)
            throw error
        }
        session.lock.withLock { session.handle = handle }
        guard let thread = DedicatedThread.start({ session.startConnecting() }) else {
            session.discard(loopStarted: false)
            throw .systemResource("no thread could be started to connect")
        }
        pthread_detach(thread)
        if var failure = session.awaitFirstConnection(timeout: timeout) {
            // libmosquitto's status says only "TLS error"; OpenSSL's reason is in its log.
            if case .tls = failure, let logged = session.errorLog.withLock({ $0 }) { failure = .tls(logged) }
            throw .connectionFailed(location: location.masked, cause: failure)
        }
        // Connected: libmosquitto's log is no longer needed (it would format a line for every message).
        mosquitto_log_callback_set(handle, nil)
        return session
    }

    /// Installs the callbacks and the connection's settings: credentials, TLS, reconnection delays.
    private func configure(_ handle: OpaquePointer) throws(MQTTError) {
        mosquitto_connect_callback_set(handle) { _, context, code in
            guard let context else { return }
            Unmanaged<MQTTSession>.fromOpaque(context).takeUnretainedValue().accepted(code: code)
        }
        mosquitto_disconnect_callback_set(handle) { _, context, status in
            let code = errno  // why the socket failed, before anything else can change it
            guard let context else { return }
            Unmanaged<MQTTSession>.fromOpaque(context).takeUnretainedValue().disconnected(status: status, code: code)
        }
        mosquitto_publish_callback_set(handle) { _, context, messageID in
            guard let context else { return }
            Unmanaged<MQTTSession>.fromOpaque(context).takeUnretainedValue().written(messageID)
        }
        mosquitto_log_callback_set(handle) { _, context, level, message in
            guard let context, let message, level & MOSQ_LOG_ERR != 0 else { return }
            Unmanaged<MQTTSession>.fromOpaque(context).takeUnretainedValue().logged(String(cString: message))
        }
        func check(_ status: Int32, _ what: String) throws(MQTTError) {
            guard status == MOSQ_ERR_SUCCESS.rawValue else {
                throw .systemResource("libmosquitto refused \(what) (\(MosquittoLibrary.text(status)))")
            }
        }
        if let user = location.user {
            try check(mosquitto_username_pw_set(handle, user, location.password), "the user name and password")
        }
        if location.usesTLS {
            var folder = stat()
            guard stat(MQTTLocation.certificateAuthorities, &folder) == 0, folder.st_mode & S_IFMT == S_IFDIR else {
                throw .connectionFailed(
                    location: location.masked,
                    cause: .tls(
                        "the system's certificate authorities are missing: \(MQTTLocation.certificateAuthorities) is not "
                            + "a folder (Debian's ca-certificates package makes it)"))
            }
            try check(
                mosquitto_tls_set(handle, nil, MQTTLocation.certificateAuthorities, nil, nil, nil), "the TLS settings")
        }
        try check(
            mosquitto_reconnect_delay_set(handle, Self.reconnectDelay.first, Self.reconnectDelay.most, true),
            "the reconnection delays")
        try check(mosquitto_int_option(handle, MOSQ_OPT_TCP_NODELAY, 1), "TCP_NODELAY")
    }

    /// The first-call thread's work: `mosquitto_connect_async` (name lookup, non-blocking connect) and
    /// `mosquitto_loop_start`, with SIGPIPE blocked in this thread and so in the network thread it starts (libmosquitto
    /// writes to sockets with `write`, which would otherwise kill the process when a broker goes away).
    private func startConnecting() {
        var signals = sigset_t()
        sigemptyset(&signals)
        sigaddset(&signals, SIGPIPE)
        pthread_sigmask(SIG_BLOCK, &signals, nil)
        guard let handle = lock.withLock({ self.handle }) else { return }
        let status = mosquitto_connect_async(handle, location.host, Int32(location.port), Self.keepalive)
        let code = errno
        let loopStarted = Self.isStarted(status) && mosquitto_loop_start(handle) == MOSQ_ERR_SUCCESS.rawValue
        let abandoned = lock.withLock {
            if case .abandoned = firstCall { return true }
            firstCall = .finished(status: status, code: code, loopStarted: loopStarted)
            return false
        }
        if abandoned { discard(loopStarted: loopStarted) }
    }

    /// Waits up to `timeout` seconds for the first connection; `nil` once the broker accepted it, else why not (the
    /// client then destroyed, or left to the first-call thread to destroy).
    private func awaitFirstConnection(timeout: Double) -> MQTTError.ConnectionFailure? {
        let deadline = Self.now() + timeout
        while true {
            let (call, phase) = lock.withLock { (firstCall, self.phase) }
            if case .finished(let status, let code, let loopStarted) = call {
                guard loopStarted else {
                    discard(loopStarted: false)
                    return Self.isStarted(status)
                        ? .other("libmosquitto could not start its network thread")
                        : MosquittoLibrary.failure(status: status, code: code, location: location)
                }
                switch phase {
                case .connected: return nil
                case .failed(let cause):
                    discard(loopStarted: true)
                    return cause
                case .connecting:
                    // A failed TLS handshake ends the network thread without a callback: only the log tells.
                    if let logged = errorLog.withLock({ $0 }), logged.contains("SSL") || logged.contains("TLS") {
                        discard(loopStarted: true)
                        return .tls(logged)
                    }
                }
            }
            if Self.now() >= deadline {
                let lookingUp = lock.withLock {
                    guard case .running = firstCall else { return false }
                    firstCall = .abandoned
                    return true
                }
                if lookingUp {
                    return .nameNotResolved(
                        host: location.host,
                        reason: "DNS did not answer within \(MQTTError.formatted(timeout)) s")
                }
                discard(loopStarted: true)
                return .timedOut(seconds: timeout)
            }
            usleep(5000)
        }
    }

    /// Whether `mosquitto_connect_async` returned a connection under way.
    private static func isStarted(_ status: Int32) -> Bool {
        status == MOSQ_ERR_SUCCESS.rawValue || status == MOSQ_ERR_CONN_PENDING.rawValue
    }

    /// Stops the network thread (at once: it may be inside a blocking reconnect) and destroys the client.
    private func discard(loopStarted: Bool) {
        let taken: OpaquePointer? = lock.withLock {
            closed = true
            connected = false
            defer { handle = nil }
            return handle
        }
        guard let taken else { return }
        if loopStarted {
            mosquitto_disconnect(taken)
            mosquitto_loop_stop(taken, true)
        }
        mosquitto_destroy(taken)
    }

    // MARK: The network thread's callbacks

    /// CONNACK: `code` 0 is accepted, anything else a refusal (and libmosquitto will try again after a delay).
    private func accepted(code: Int32) {
        lock.withLock {
            connected = code == 0
            guard case .connecting = phase else { return }
            phase = code == 0 ? .connected : .failed(MosquittoLibrary.refusal(code: code, user: location.user))
        }
    }

    /// The connection ended (or the attempt failed): `status` is libmosquitto's reason, `code` the `errno` it left.
    /// libmosquitto discards the messages it still holds when it reconnects: they count as dropped.
    private func disconnected(status: Int32, code: Int32) {
        lock.withLock {
            connected = false
            dropped += queued.count
            queued.removeAll(keepingCapacity: true)
            queuedBytes = 0
            guard case .connecting = phase else { return }
            phase = .failed(MosquittoLibrary.failure(status: status, code: code, location: location))
        }
    }

    /// A QoS 0 message was written to the socket in full.
    private func written(_ messageID: Int32) {
        lock.withLock {
            guard let size = queued.removeValue(forKey: messageID) else { return }
            queuedBytes -= size
            published += 1
        }
    }

    /// An error libmosquitto logged.
    private func logged(_ message: String) {
        errorLog.withLock { $0 = String(message.prefix(300)) }
    }

    // MARK: Publishing

    /// Hands `payload` to libmosquitto for `topic` (QoS 0, not retained) without waiting for the network; `false`
    /// (and counted as dropped) while disconnected or closed, when the queue is full, or when libmosquitto refuses it.
    func publish(topic: String, payload: [UInt8]) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        guard let handle, !closed, connected, queued.count < queueLimit,
            queuedBytes + payload.count <= Self.queuedBytesLimit
        else {
            dropped += 1
            return false
        }
        var messageID: Int32 = 0
        let status = payload.withUnsafeBytes { bytes in
            mosquitto_publish(handle, &messageID, topic, Int32(bytes.count), bytes.baseAddress, 0, false)
        }
        guard status == MOSQ_ERR_SUCCESS.rawValue else {
            dropped += 1
            return false
        }
        // The network thread may already have written it, but its callback waits for `lock`: recorded first.
        queued[messageID] = payload.count
        queuedBytes += payload.count
        return true
    }

    /// Counts a message refused before it reached libmosquitto.
    func drop() { lock.withLock { dropped += 1 } }

    /// The counters: written, dropped, held for writing.
    var counts: (published: Int, dropped: Int, queued: Int) {
        lock.withLock { (published, dropped, queued.count) }
    }

    /// Whether the broker has accepted the current connection (and the session is open).
    var isConnected: Bool { lock.withLock { connected && !closed } }

    // MARK: Closing

    /// Sends DISCONNECT after the messages still held (waiting up to 2 s for them), stops the network thread and
    /// destroys the client. Idempotent; messages still held at the end count as dropped.
    func close() {
        let open: (handle: OpaquePointer, connected: Bool)? = lock.withLock {
            defer { closed = true }
            guard !closed, let handle else { return nil }
            return (handle, connected)
        }
        guard let open else { return }
        var clean = false
        if open.connected, mosquitto_disconnect(open.handle) == MOSQ_ERR_SUCCESS.rawValue {
            let deadline = Self.now() + 2
            while lock.withLock({ connected }) && Self.now() < deadline { usleep(2000) }
            clean = !lock.withLock { connected }
        }
        // Cleanly disconnected, the thread ends by itself; otherwise it may be in a blocking reconnect: cancel it.
        mosquitto_loop_stop(open.handle, !clean)
        lock.withLock {
            dropped += queued.count
            queued.removeAll()
            queuedBytes = 0
            connected = false
            handle = nil
        }
        mosquitto_destroy(open.handle)
    }

    /// Seconds on the monotonic clock.
    private static func now() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}
