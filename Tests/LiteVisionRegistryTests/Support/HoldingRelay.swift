import Foundation
import LiteVisionTestSupport

/// TCP relays on loopback (Python), one in front of each of several servers, that pass bytes both ways untouched
/// except once: the first connection whose answer grows past `holdAfter` bytes stops being forwarded there (what
/// the server sends next is read and dropped), and the relay prints `held N` (N: the server's index). When that
/// server goes away, the relay closes the held connection, so the client sees an answer cut off mid-file.
///
/// This makes "a replica killed in the middle of a download" happen at a known point: the test waits for `held`,
/// then kills the replica with `kill -9`. A relay whose server is gone closes new connections at once, as a dead
/// machine's refused connection would look to nginx.
final class HoldingRelay {
    /// The relays' ports, in the order of the servers.
    let ports: [Int]
    private let process = Process()
    private let input = Pipe()
    private let log: OutputLog

    private static let script = #"""
        import os, socket, sys, threading
        upstreams = [int(port) for port in sys.argv[1].split(",")]
        hold_after = int(sys.argv[2])
        threading.Thread(target=lambda: (sys.stdin.buffer.read(), os._exit(0)), daemon=True).start()
        lock = threading.Lock()
        held = [False]

        def requests(client, upstream):
            try:
                while True:
                    data = client.recv(65536)
                    if not data:
                        break
                    upstream.sendall(data)
                upstream.shutdown(socket.SHUT_WR)
            except OSError:
                pass

        def relay(client, index):
            try:
                upstream = socket.create_connection(("127.0.0.1", upstreams[index]))
            except OSError:
                client.close()
                return
            threading.Thread(target=requests, args=(client, upstream), daemon=True).start()
            sent, holding = 0, False
            try:
                while True:
                    data = upstream.recv(65536)
                    if not data:
                        break
                    if holding:
                        continue
                    if sent + len(data) > hold_after:
                        with lock:
                            holding = not held[0]
                            held[0] = True
                        if holding:
                            client.sendall(data[: hold_after - sent])
                            print("held", index, flush=True)
                            continue
                    client.sendall(data)
                    sent += len(data)
            except OSError:
                pass
            # shutdown, not only close: the other thread is blocked in recv() on these sockets, and Linux keeps a
            # socket open (sends no FIN) while a call on it is under way.
            for end in (client, upstream):
                try:
                    end.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass
                end.close()

        def listen(index, listener):
            while True:
                client, _ = listener.accept()
                threading.Thread(target=relay, args=(client, index), daemon=True).start()

        ports = []
        for index in range(len(upstreams)):
            listener = socket.socket()
            listener.bind(("127.0.0.1", 0))
            listener.listen(64)
            ports.append(str(listener.getsockname()[1]))
            threading.Thread(target=listen, args=(index, listener), daemon=True).start()
        print(",".join(ports), flush=True)
        threading.Event().wait()
        """#

    init(upstreams: [Int], holdAfter: Int) throws {
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [
            "python3", "-c", Self.script, upstreams.map(String.init).joined(separator: ","), String(holdAfter),
        ]
        let output = Pipe()
        process.standardOutput = output
        input.closeOnExec()
        process.standardInput = input
        log = OutputLog(reading: output)
        try process.run()
        let child = process, log = log  // the closure may not capture `self` before `ports` is set
        _ = waitUntil(seconds: 30, every: 0.01) { log.text.contains("\n") || !child.isRunning ? true : nil }
        let line = log.text.split(separator: "\n").first ?? ""
        ports = line.split(separator: ",").compactMap { Int($0) }
        guard ports.count == upstreams.count else {
            stop()
            throw RegistryProcessError(message: "the relay did not start: \(log.text)")
        }
    }

    /// The index of the server whose answer is held, once one is.
    var heldServer: Int? {
        log.text.split(separator: "\n").first { $0.hasPrefix("held ") }.flatMap { Int($0.dropFirst(5)) }
    }

    func stop() {
        try? input.fileHandleForWriting.close()
        process.waitUntilExit()
    }

    deinit { if process.isRunning { process.terminate() } }
}
