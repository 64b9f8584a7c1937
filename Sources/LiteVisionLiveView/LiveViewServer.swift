import Dispatch
import Hummingbird
import HummingbirdCore
import HummingbirdTLS
import LiteVisionSystem
import Logging
import NIOCore
import NIOSSL
import Synchronization

/// The live view's HTTP server (Hummingbird), running beside the tracking threads in the `litevision track`
/// process, on the routes of ``LiveViewRoutes``.
///
/// Viewers that stop reading are closed after ``stallTimeout`` seconds without a completed write (every viewer gets
/// a heartbeat every ``heartbeatInterval`` seconds), and so are connections that send no complete request for as
/// long; at most ``LiveViewRoutes/maximumPictureViewers`` MJPEG and ``LiveViewRoutes/maximumEventViewers`` event
/// viewers, and ``LiveViewConnectionLimit/maximum`` connections, at once. See ``LiveViewAccess`` for who may connect.
package final class LiveViewServer: Sendable {
    /// Seconds between heartbeats (a picture resent, an event comment) to every viewer.
    static let heartbeatInterval = 2.0
    /// Seconds a viewer may go without a write completing before its connection is closed.
    static let stallTimeout: Int64 = 20

    /// The port the server listens on (the one asked for, or the one picked for port 0).
    package let port: Int
    /// The base URL, such as `http://127.0.0.1:8080/` (an IPv6 host in brackets).
    package let url: String
    private let hub: LiveViewHub
    private let task: Task<Void, Never>
    private let finished: DispatchSemaphore

    /// Starts serving `hub` on `host`:`port` (0 picks a free port; `isLoopback` says whether that is this machine's
    /// loopback, see ``LiveViewAccess``), with `token` required when given and over TLS
    /// when `tls` names a PEM certificate chain and key; returns once the server listens. It blocks the calling
    /// thread meanwhile: call it from a thread of your own, not from async code.
    ///
    /// - Throws: ``LiveViewError`` when the address cannot be listened on (in use, not this machine's) or the TLS
    ///   files cannot be used.
    package init(
        hub: LiveViewHub, host: String, port: Int, isLoopback: Bool, token: LiveViewToken?,
        tls: (certificate: String, key: String)?
    ) throws(LiveViewError) {
        let configuration = try tls.map { tls throws(LiveViewError) in
            try Self.tlsConfiguration(certificate: tls.certificate, key: tls.key)
        }
        let router = Router()
        router.add(middleware: LiveViewAccess(token: token, loopbackHostsOnly: token == nil && isLoopback))
        LiveViewRoutes(hub: hub).add(to: router)
        let http = HTTPServerBuilder.http1(
            configuration: HTTP1Channel.Configuration(
                additionalChannelHandlers: [
                    IdleStateHandler(writeTimeout: .seconds(Self.stallTimeout)), StalledViewerCloser(),
                ],
                idleTimeout: .seconds(Self.stallTimeout)))
        let server: HTTPServerBuilder
        do {
            server = try configuration.map { try .tls(http, tlsConfiguration: $0) } ?? http
        } catch {
            throw LiveViewError("the TLS certificate or key cannot be used: \(error)")
        }
        var logger = Logger(label: "litevision.live-view")
        logger.logLevel = .critical
        let listening = Mutex<Result<Int, LiveViewError>?>(nil)
        let ready = DispatchSemaphore(value: 0)
        let application = Application(
            router: router, server: server,
            configuration: ApplicationConfiguration(
                address: .hostname(host, port: port), serverName: "LiteVision",
                availableConnectionsDelegate: LiveViewConnectionLimit()),
            onServerRunning: { channel in
                listening.withLock { $0 = .success(channel.localAddress?.port ?? port) }
                ready.signal()
            }, logger: logger)
        let finished = DispatchSemaphore(value: 0)
        task = Task.detached {
            do {
                try await withThrowingTaskGroup(of: Void.self) { group in
                    group.addTask { try await application.run() }
                    group.addTask {
                        while true {
                            try await Task.sleep(for: .seconds(Self.heartbeatInterval))
                            hub.heartbeat()
                        }
                    }
                    try await group.next()
                    group.cancelAll()
                }
            } catch {
                let reason = "\(error)"
                listening.withLock { state in
                    if state == nil { state = .failure(LiveViewError("cannot serve on \(host):\(port): \(reason)")) }
                }
            }
            ready.signal()
            finished.signal()
        }
        ready.wait()
        self.hub = hub
        self.finished = finished
        switch listening.withLock({ $0 }) {
        case .success(let bound)?:
            self.port = bound
            let shownHost = host.contains(":") ? "[\(host)]" : host
            url = "\(tls == nil ? "http" : "https")://\(shownHost):\(bound)/"
        case .failure(let error)?:
            task.cancel()
            throw error
        case nil:
            task.cancel()
            throw LiveViewError("cannot serve on \(host):\(port)")
        }
    }

    /// Ends every viewer's stream and stops the server; returns once it has stopped. Safe to call more than once.
    package func stop() {
        hub.close()
        task.cancel()
        finished.wait()
        finished.signal()  // a later call returns at once
    }

    /// The TLS configuration of a PEM certificate chain and private key (each file at most 1 MB, read with
    /// ``FileContents``, which refuses a FIFO or device instead of blocking).
    private static func tlsConfiguration(certificate: String, key: String) throws(LiveViewError) -> TLSConfiguration {
        do {
            let chain = try NIOSSLCertificate.fromPEMBytes(FileContents.read(atPath: certificate, maximumSize: 1 << 20))
            let privateKey = try NIOSSLPrivateKey(
                bytes: FileContents.read(atPath: key, maximumSize: 1 << 20), format: .pem)
            return TLSConfiguration.makeServerConfiguration(
                certificateChain: chain.map { .certificate($0) }, privateKey: .privateKey(privateKey))
        } catch {
            throw LiveViewError("the TLS certificate \(certificate) or key \(key) cannot be used: \(error)")
        }
    }
}
