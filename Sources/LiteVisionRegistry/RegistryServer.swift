import Hummingbird
import HummingbirdCore
import HummingbirdTLS
import LiteVisionSystem
import Logging
import NIOCore
import NIOHTTPTypes
import NIOSSL
import ServiceLifecycle

/// The registry as an HTTP server (Hummingbird), on the routes of ``RegistryRoutes``.
///
/// Timeouts: a connection with no complete request for ``Limits/idleTimeout`` (a keep-alive connection left
/// open, or a client that never finishes its headers) is closed; so is one on which nothing moves in either
/// direction for ``Limits/stallTimeout`` during a request (an upload that stops sending, a download whose client
/// stops reading). Request bodies are read only by publish, up to the upload limit of ``RegistryRoutes``; the
/// request line and headers are bounded by the HTTP parser (80 KiB). A body that keeps arriving more than
/// ``Limits/unreadBodyGrace`` seconds after its answer was sent is not read to its end: the connection is closed.
///
/// Memory: at most ``Limits/maximumConnections`` connections are open at once (more wait in the listen queue), and
/// a download hands its connection the next piece only when the channel has taken the previous ones (NIO's
/// writability), so a client that stops reading holds at most ``RegistryRoutes/bufferedBytesPerConnection`` of it
/// in the registry, until the stall timeout closes its connection: 2048 connections, at most 384 MiB. What closed
/// connections freed goes back to the system a second later (``HeapTrimmer``).
package enum RegistryServer {
    /// How long clients may keep a connection without using it.
    package struct Limits: Sendable {
        /// Seconds a connection may wait for its next request.
        package var idleTimeout: Int64 = 60
        /// Seconds a request's body may go on arriving after the answer was sent (a refusal of a publish, a body
        /// sent to a route that reads none): then the connection is closed rather than the rest read.
        package var unreadBodyGrace: Int64 = 5

        /// Seconds a request may go without a byte moving in either direction.
        package var stallTimeout: Int64 = 60

        /// Connections open at once: more wait in the listen queue until one closes (accepting pauses).
        package var maximumConnections = Self.defaultMaximumConnections

        /// The default of ``maximumConnections``: with at most ``RegistryRoutes/bufferedBytesPerConnection`` of a
        /// download waiting per connection, the registry's memory for them stays under 384 MiB (measured: 232 KiB
        /// per non-reading client with the connection's own state, so ~470 MB at this limit).
        package static let defaultMaximumConnections = 2048

        package init(
            idleTimeout: Int64 = 60, stallTimeout: Int64 = 60, unreadBodyGrace: Int64 = 5,
            maximumConnections: Int = Self.defaultMaximumConnections
        ) {
            self.idleTimeout = idleTimeout
            self.stallTimeout = stallTimeout
            self.unreadBodyGrace = unreadBodyGrace
            self.maximumConnections = maximumConnections
        }
    }

    /// The TLS configuration for a PEM certificate chain and private key. Both files are read with
    /// ``FileContents`` (a FIFO or device is refused at once instead of blocking the start) and must be at most 1 MB.
    package static func tlsConfiguration(certificate: String, key: String) throws -> TLSConfiguration {
        let certificateBytes = try FileContents.read(atPath: certificate, maximumSize: 1 << 20)
        let keyBytes = try FileContents.read(atPath: key, maximumSize: 1 << 20)
        let chain = try NIOSSLCertificate.fromPEMBytes(certificateBytes).map { NIOSSLCertificateSource.certificate($0) }
        let privateKey = try NIOSSLPrivateKey(bytes: keyBytes, format: .pem)
        return TLSConfiguration.makeServerConfiguration(certificateChain: chain, privateKey: .privateKey(privateKey))
    }

    /// A server for `routes` on `host`:`port` (0 picks a free port), over TLS when `tls` is given; `onRunning`
    /// is told the port once it listens. Run it with `run()` (cancelling the task stops it) or `runService()`
    /// (stops gracefully on SIGTERM and SIGINT).
    ///
    /// Logs (swift-log, to standard error) at `logLevel`: the server's start and stop, every publish and every
    /// change (info), refusals (notice), storage failures (error); each request at debug.
    ///
    /// `services` (a database's connection pool, say) run in the application's service group: started before the
    /// server, stopped after it, so that a graceful shutdown finishes the running requests (downloads included)
    /// while the storage is still there.
    package static func application(
        routes: RegistryRoutes, host: String = "127.0.0.1", port: Int = 8470, tls: TLSConfiguration? = nil,
        limits: Limits = Limits(), logLevel: Logger.Level = .info, services: [any Service] = [],
        onRunning: @escaping @Sendable (Int) async -> Void = { _ in }
    ) throws -> some ApplicationProtocol {
        let router = Router(context: RegistryRequestContext.self)
        router.add(middleware: LogRequestsMiddleware(.debug))
        router.add(middleware: MetricsMiddleware())
        routes.add(to: router)
        var logger = Logger(label: "litevision.registry")
        logger.logLevel = logLevel
        let http = HTTPServerBuilder.http1(
            configuration: HTTP1Channel.Configuration(
                additionalChannelHandlers: [
                    RequestHeadRulesInstaller(),
                    IdleStateHandler(allTimeout: .seconds(limits.stallTimeout)), StalledConnectionCloser(),
                    UnreadBodyCloser(grace: .seconds(limits.unreadBodyGrace)),
                    // Last, so that only Hummingbird's own closes (after a response, on shutdown) wait for the
                    // writes; the stall and unread-body closes above go straight to the socket.
                    FlushBeforeClose(),
                ],
                idleTimeout: .seconds(limits.idleTimeout)))
        return Application(
            router: router, server: try tls.map { try .tls(http, tlsConfiguration: $0) } ?? http,
            configuration: ApplicationConfiguration(
                // A load balancer opening hundreds of connections at once: the default queue of 256 pending
                // connections overflowed behind nginx (a dropped SYN is retried after 1 s: p99 latency of 1 s).
                // Linux caps it at net.core.somaxconn (4096 since kernel 5.4).
                address: .hostname(host, port: port), serverName: "LiteVision registry", backlog: 4096,
                availableConnectionsDelegate: ConnectionLimit(limits.maximumConnections, logger: logger)),
            services: services, onServerRunning: { channel in await onRunning(channel.localAddress?.port ?? port) },
            logger: logger)
    }
}

/// Lets the bytes of a response reach the client before its connection is closed.
///
/// Hummingbird closes a connection right after writing the end of the response in progress when the server
/// shuts down gracefully (SIGTERM), and a close in SwiftNIO discards writes still waiting for the socket: a
/// download to a client slower than the server lost its last few hundred KB (seen: 4,165,632 of 4,185,023
/// bytes). Here a close waits until the last write has gone to the socket. A client that stops reading is still
/// dropped after the stall timeout (`StalledConnectionCloser`, whose close does not pass through this handler).
final class FlushBeforeClose: ChannelOutboundHandler, RemovableChannelHandler {
    typealias OutboundIn = NIOAny  // writes pass through untouched

    /// The last write (writes complete in order; one already done makes a close go ahead at once).
    private var lastWrite: EventLoopFuture<Void>?

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        let promise = promise ?? context.eventLoop.makePromise()
        lastWrite = promise.futureResult
        context.write(data, promise: promise)
    }

    func close(context: ChannelHandlerContext, mode: CloseMode, promise: EventLoopPromise<Void>?) {
        guard mode == .all, let pending = lastWrite else {
            context.close(mode: mode, promise: promise)
            return
        }
        lastWrite = nil
        context.flush()
        pending.whenComplete { _ in context.close(mode: mode, promise: promise) }
    }
}

/// Closes the connection when `IdleStateHandler` reports that nothing moved for its timeout.
final class StalledConnectionCloser: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = NIOAny  // reads pass through untouched

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if event is IdleStateHandler.IdleStateEvent {
            context.close(promise: nil)
        } else {
            context.fireUserInboundEventTriggered(event)
        }
    }
}

/// Closes a connection whose request body is still arriving `grace` after the response ended: Hummingbird reads
/// an unread body to its end before the next request, so a client sending a huge declared body slowly to a route
/// that answered at once (401, 404, 413) would otherwise hold the connection for as long as it likes.
final class UnreadBodyCloser: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    private let grace: TimeAmount
    private var requestEnded = true
    private var deadline: Scheduled<Void>?

    init(grace: TimeAmount) {
        self.grace = grace
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head: requestEnded = false
        case .body: break
        case .end:
            requestEnded = true
            deadline?.cancel()
            deadline = nil
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if case .end = unwrapOutboundIn(data), !requestEnded, deadline == nil {
            let loopBound = NIOLoopBound(context, eventLoop: context.eventLoop)
            deadline = context.eventLoop.scheduleTask(in: grace) { loopBound.value.close(promise: nil) }
        }
        context.write(data, promise: promise)
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        deadline?.cancel()
    }
}
