import NIOCore
import NIOHTTP1
import NIOHTTPTypesHTTP1

/// HTTP/1 rules on a request's head that Hummingbird does not apply, checked before the head is turned into
/// Hummingbird's request (which no longer knows the HTTP version):
/// - an HTTP/1.1 request must have exactly one `Host` header (RFC 9112 §3.2): one without, or with several, is
///   answered 400 and its connection closed;
/// - a connection the client does not keep alive (HTTP/1.0 without `Connection: keep-alive`, or
///   `Connection: close` among other options) is closed after the response: its request is given to Hummingbird
///   with `Connection: close`, the one form Hummingbird recognizes.
///
/// Installed by ``RequestHeadRulesInstaller`` just before Hummingbird's HTTP/1 codec.
final class RequestHeadRules: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundIn = HTTPServerResponsePart
    typealias OutboundOut = HTTPServerResponsePart

    /// Set once a request was refused: nothing more is read from the connection, which is closing.
    private var refused = false

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !refused else { return }
        guard case .head(var head) = unwrapInboundIn(data) else {
            context.fireChannelRead(data)
            return
        }
        if head.version.major == 1, head.version.minor >= 1, head.headers["host"].count != 1 {
            refuse(
                context: context, version: head.version,
                because: head.headers["host"].isEmpty
                    ? "an HTTP/1.1 request must name its host: send a Host header"
                    : "an HTTP/1.1 request must have one Host header, this one has several")
            return
        }
        if !head.isKeepAlive { head.headers.replaceOrAdd(name: "connection", value: "close") }
        context.fireChannelRead(wrapInboundOut(.head(head)))
    }

    /// Answers 400 with `reason` (as the registry's other errors: `{"error": "…"}`) and closes the connection.
    private func refuse(context: ChannelHandlerContext, version: HTTPVersion, because reason: String) {
        refused = true
        var body = context.channel.allocator.buffer(capacity: reason.utf8.count + 16)
        body.writeString("{\"error\":\"\(reason)\"}")
        let head = HTTPResponseHead(
            version: version, status: .badRequest,
            headers: [
                "content-type": "application/json", "content-length": String(body.readableBytes),
                "connection": "close",
            ])
        context.write(wrapOutboundOut(.head(head)), promise: nil)
        context.write(wrapOutboundOut(.body(.byteBuffer(body))), promise: nil)
        let loopBound = NIOLoopBound(context, eventLoop: context.eventLoop)
        context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in loopBound.value.close(promise: nil) }
    }
}

/// Puts ``RequestHeadRules`` just before Hummingbird's HTTP/1 codec when it is added to a connection's pipeline
/// (Hummingbird adds the handlers it is given after its codec), then passes everything through.
final class RequestHeadRulesInstaller: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = NIOAny

    func handlerAdded(context: ChannelHandlerContext) {
        let pipeline = context.pipeline.syncOperations
        guard let codec = try? pipeline.handler(type: HTTP1ToHTTPServerCodec.self) else { return }
        try? pipeline.addHandler(RequestHeadRules(), position: .before(codec))
    }
}
