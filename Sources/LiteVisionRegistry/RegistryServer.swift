import Hummingbird

/// The registry as an HTTP server (Hummingbird), on the routes of ``RegistryRoutes``.
package enum RegistryServer {
    /// A server for `routes` on `host`:`port` (0 picks a free port); `onRunning` is told the port once it
    /// listens. Run it with `run()`; cancelling the task that runs it stops it.
    package static func application(
        routes: RegistryRoutes, host: String = "127.0.0.1", port: Int = 8470,
        onRunning: @escaping @Sendable (Int) async -> Void = { _ in }
    ) -> some ApplicationProtocol {
        let router = Router()
        routes.add(to: router)
        return Application(
            router: router,
            configuration: ApplicationConfiguration(
                address: .hostname(host, port: port), serverName: "LiteVision registry"),
            onServerRunning: { channel in await onRunning(channel.localAddress?.port ?? port) })
    }
}
