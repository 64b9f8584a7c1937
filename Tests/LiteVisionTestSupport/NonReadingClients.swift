import Foundation

/// Many TCP connections to a loopback server, each sending one request (which may be several pipelined ones) and
/// never reading the answer, with a small receive buffer, so that the server must hold what it cannot send.
///
/// They are held by a helper process (`/usr/bin/python3`), not by the test process: 800 sockets in the test process
/// took it to about 1,000 open descriptors, and under the common soft limit of 1024 the other tests running beside
/// it then failed to open theirs (in CI: a URLSession request in another suite could not connect; the clients' own
/// `/health` check could not open its socket). The helper raises its own soft limit to the hard one as far as it
/// needs. The connections close when ``close()`` is called or the value is released, and when the test process ends
/// (once ready, the helper exits when its standard input closes; before, its connecting is bounded by the timeout).
public final class NonReadingClients {
    /// How many connections are open.
    public let count: Int
    private let process: ServerProcess
    /// The helper's script and error output.
    private let folder: URL

    /// Opens `count` connections to 127.0.0.1 `port` with a receive buffer of `receiveBuffer` bytes, sends
    /// `request` on each, and returns once all are sent (at most `timeout` seconds).
    public init(_ count: Int, port: Int, request: String, receiveBuffer: Int = 4096, timeout: Double = 120) throws {
        folder = TestData.temporaryDirectory("non-reading-clients")
        let script = folder.appendingPathComponent("non-reading-clients.py")
        do {
            try Self.script.write(to: script, atomically: true, encoding: .utf8)
            process = try ServerProcess(
                name: "\(count) non-reading clients", executable: "/usr/bin/python3",
                arguments: [script.path, String(port), String(count), String(receiveBuffer), request],
                log: folder.appendingPathComponent("non-reading-clients.log"), timeout: timeout)
        } catch {
            try? FileManager.default.removeItem(at: folder)
            throw error
        }
        self.count = count
        guard process.firstLine == "ready \(count)" else {
            close()
            throw LoopbackServerError("the non-reading clients printed '\(process.firstLine)', not 'ready \(count)'")
        }
    }

    deinit { close() }

    /// Closes every connection (the helper is killed; the kernel closes its sockets) and waits for the helper.
    public func close() {
        process.stopNow()
        try? FileManager.default.removeItem(at: folder)
    }

    /// Connects, sends, prints `ready COUNT`, then holds the sockets until standard input closes.
    private static let script = """
        import resource, socket, sys
        port, count, receive_buffer = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
        request = sys.argv[4].encode()
        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        needed = count + 64
        if soft != resource.RLIM_INFINITY and soft < needed:
            if hard != resource.RLIM_INFINITY and hard < needed:
                sys.exit(f"{count} connections need {needed} descriptors; the hard open-file limit is {hard}")
            resource.setrlimit(resource.RLIMIT_NOFILE, (needed, hard))
        clients = []
        for _ in range(count):
            client = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            client.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, receive_buffer)
            client.connect(("127.0.0.1", port))
            client.sendall(request)
            clients.append(client)
        print(f"ready {count}", flush=True)
        sys.stdin.read()
        """
}
