import Hummingbird
import NIOCore

/// The context of a registry request: Hummingbird's basic one, and the connection the request came on, so that a
/// download can wait for the connection's event loop between pieces (``RegistryRoutes``' blob route).
package struct RegistryRequestContext: RequestContext {
    /// Hummingbird's part of the context (logger, route parameters, allocator).
    package var coreContext: CoreRequestContextStorage
    /// The connection the request arrived on.
    package let channel: any Channel

    /// The context of a request that arrived on `source`'s channel.
    package init(source: ApplicationRequestContextSource) {
        coreContext = CoreRequestContextStorage(source: source)
        channel = source.channel
    }
}
