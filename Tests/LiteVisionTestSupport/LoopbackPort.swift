import Foundation
import Synchronization

/// Loopback ports for test servers that must be told their port before they start (nginx, PostgreSQL, a UDP
/// receiver), and ports nothing listens on. The kernel picks a port for a socket bound to port 0, then the socket
/// is closed and the number handed out.
///
/// A number is never handed out twice in one test process: the kernel may well give a just-released port again,
/// and two servers of one test on one port fail in confusing ways (two nginx sites on one port: the first answers
/// for both, and a redirect from one to the other loops). Another process can still take a port in between; a
/// server that cannot bind it reports that.
public enum LoopbackPort {
    /// The transport a port is for.
    public enum Transport: Sendable { case tcp, udp }

    /// Every port handed out so far in this process.
    private static let handedOut = Mutex<Set<Int>>([])

    /// A port on 127.0.0.1 that nothing is bound to now, and that this process has not handed out before.
    public static func unused(_ transport: Transport = .tcp) throws -> Int {
        for _ in 0..<100 {
            let port = try kernelPick(transport)
            let fresh = handedOut.withLock { $0.insert(port).inserted }
            if fresh { return port }
        }
        throw LoopbackServerError("no fresh loopback port after 100 tries")
    }

    /// The port the kernel gives a socket bound to 127.0.0.1 port 0.
    private static func kernelPick(_ transport: Transport) throws -> Int {
        let type = transport == .tcp ? SOCK_STREAM : SOCK_DGRAM
        let descriptor = socket(AF_INET, Int32(type.rawValue), 0)
        guard descriptor >= 0 else { throw LoopbackServerError("socket: errno \(errno)") }
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, length) == 0 && getsockname(descriptor, $0, &length) == 0
            }
        }
        guard bound else { throw LoopbackServerError("bind to 127.0.0.1 port 0: errno \(errno)") }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}
