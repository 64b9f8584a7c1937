import HummingbirdCore

/// At most ``maximum`` connections to the live view at once: accepting pauses at the limit (more wait in the
/// listen queue), so that a client opening thousands of sockets cannot take the file descriptors the cameras'
/// connections need.
struct LiveViewConnectionLimit: AvailableConnectionsDelegate {
    /// The most connections open at once: the viewers' limits, and room for pages, metrics and health checks.
    static let maximum = 64

    /// Connections open now (the delegate is called on the listening channel's event loop).
    private var open = 0

    mutating func connectionOpened() { open += 1 }

    mutating func connectionClosed() { open -= 1 }

    func isAcceptingNewConnections() -> Bool { open < Self.maximum }
}
