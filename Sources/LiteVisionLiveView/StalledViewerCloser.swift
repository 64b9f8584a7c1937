import NIOCore

/// Closes a connection when the `IdleStateHandler` before it reports that no write completed for its timeout: a
/// viewer that stopped reading (its socket buffers full) would otherwise hold its viewer slot for ever. Healthy
/// viewers always get a write within the timeout: pictures and events are resent as heartbeats.
final class StalledViewerCloser: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = NIOAny  // reads pass through untouched

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        guard let idle = event as? IdleStateHandler.IdleStateEvent, idle == .write else {
            context.fireUserInboundEventTriggered(event)
            return
        }
        context.close(promise: nil)
    }
}
