import Foundation
import LiteVisionRegistry
import LiteVisionTestSupport
import Testing

/// What the server does with connections that misbehave, on a real `litevision-registry serve` process on
/// loopback and raw sockets: clients that never read a download (memory), more connections than allowed,
/// HTTP/1.1 requests without `Host`, HTTP/1.0 clients that do not keep the connection alive, and no descriptors
/// left to accept with.
@Suite("Registry connections: memory, limits and HTTP/1 rules (real server on loopback)", .serialized)
struct RegistryConnectionTests {
    /// A registry started with `arguments`, with bird.tflite published as `birds`, and with `largeModel` also a
    /// model of that many bytes and more (bird.tflite padded) as `large`; the path of the blob of `large` if there
    /// is one, else of `birds`.
    static func withRegistry(
        _ arguments: [String] = [], largeModel: Int? = nil, _ body: (RegistryProcess, String) throws -> Void
    ) throws {
        let folder = TestData.temporaryDirectory("registry-connections")
        defer { try? FileManager.default.removeItem(at: folder) }
        let server = try RegistryProcess(data: folder.appendingPathComponent("data").path, arguments: arguments)
        defer { server.stop(SIGKILL) }
        let token = try server.makePublishToken(in: folder)
        var models = [("birds", TestData.model("bird.tflite"))]
        if let largeModel {
            models.append(("large", try RegistryFaultTests.largeModel(in: folder, padding: largeModel)))
        }
        for (name, file) in models {
            let published = try Executables.litevision(
                ["models", "publish", "--registry", server.base, "--token-file", token.file, name, file])
            #expect(published.status == 0, "\(published.errors)")
        }
        let blob = largeModel == nil ? RegistryCLITests.birdSHA256 : try RegistryFaultTests.sha256(models[1].1)
        try body(server, "/v1/blobs/" + blob)
    }

    /// The resident memory of process `pid`, in bytes.
    static func residentBytes(_ pid: Int32) -> Int {
        let status = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
        let line = status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") } ?? ""
        return (Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0) * 1024
    }

    /// The hard open-file limit of this process, which the registries it starts inherit (from `/proc/self/limits`);
    /// nil when unlimited or unreadable.
    static func hardOpenFileLimit() -> Int? {
        let limits = (try? String(contentsOfFile: "/proc/self/limits", encoding: .utf8)) ?? ""
        guard let line = limits.split(separator: "\n").first(where: { $0.hasPrefix("Max open files") }) else {
            return nil
        }
        // "Max open files  SOFT  HARD  files"
        let fields = line.dropFirst("Max open files".count).split(separator: " ")
        return fields.count >= 2 ? Int(fields[1]) : nil
    }

    /// CPU seconds process `pid` has used (user and system).
    static func cpuSeconds(_ pid: Int32) -> Double {
        let stat = (try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)) ?? ""
        // After the command name in parentheses: fields 14 and 15 (utime, stime) in clock ticks.
        let fields = stat.split(separator: ")").last?.split(separator: " ") ?? []
        guard fields.count > 13 else { return 0 }
        return (Double(fields[11]) ?? 0) / 100 + (Double(fields[12]) ?? 0) / 100
    }

    /// `GET /health` on a new connection: whether it was answered 200 within `seconds`.
    static func healthy(_ port: Int, seconds: Double = 5) -> Bool {
        healthCheck(port, seconds: seconds) == nil
    }

    /// `GET /health` on a new connection, answered 200 within `seconds`: nil if so, else what happened instead (the
    /// connection's error, or what arrived).
    static func healthCheck(_ port: Int, seconds: Double) -> String? {
        let socket: LoopbackSocket
        do { socket = try LoopbackSocket(port: port) } catch { return "\(error)" }
        _ = socket.send("GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
        let answer = socket.readUntilClosed(seconds: seconds)
        return answer.text.hasPrefix("HTTP/1.1 200") ? nil : "'\(answer.text.prefix(80))' (closed: \(answer.closed))"
    }

    /// The most a client that does not read may make the registry hold: the three 64 KiB pieces of
    /// `RegistryRoutes.bufferedBytesPerConnection` and the connection's own state (measured: 232 KiB in all with
    /// 800 clients on a file; 1.1 MB before each piece waited for the connection's event loop).
    static let heldPerClient = 320 << 10

    /// RSS the registry may keep above what it had before the clients came once they have all gone (measured:
    /// 4-7 MB; 156 MB before freed memory was given back).
    static let keptAfterClients = 24 << 20

    /// How a non-reading client's download is served.
    enum Download: String, CaseIterable, Sendable, CustomTestStringConvertible {
        /// bird.tflite (3.6 MB) from the registry's memory (the default `--blob-memory`).
        case memory
        /// bird.tflite read from its file (`--blob-memory 0`).
        case file
        /// A 58 MB model (bird.tflite padded): always read from its file (the memory keeps files up to 32 MiB).
        case large

        var arguments: [String] { self == .file ? ["--blob-memory", "0"] : [] }
        var largeModel: Int? { self == .large ? 52 << 20 : nil }
        var testDescription: String { rawValue }
    }

    /// The RSS of `pid` once it has stopped moving (two readings 1 s apart within 2 MB), at most `seconds` on.
    static func settledResidentBytes(_ pid: Int32, seconds: Double = 15) -> Int {
        let deadline = Date().addingTimeInterval(seconds)
        var last = residentBytes(pid)
        while Date() < deadline {
            Thread.sleep(forTimeInterval: 1)
            let now = residentBytes(pid)
            if abs(now - last) < 2 << 20 { return now }
            last = now
        }
        return last
    }

    /// Checks, after `clients` were opened on `server` (whose RSS was `before`), that the registry holds less than
    /// `perClient` bytes for each and 600 MB in all, that `/health` answers meanwhile, and that the memory goes
    /// back once they close (within 10 s).
    static func expectBounded(
        _ clients: NonReadingClients, server: RegistryProcess, before: Int, perClient: Int, what: String
    ) {
        Thread.sleep(forTimeInterval: 3)
        let during = settledResidentBytes(server.pid)
        // Three tries of 5 s on new connections: on CI's two cores, beside the live suites, one try went unanswered
        // (twice in about ten runs, the cause not found); a registry that stops answering fails all three.
        var failures: [String] = []
        for _ in 0..<3 {
            guard let failure = healthCheck(server.port, seconds: 5) else { break }
            failures.append(failure)
        }
        #expect(failures.count < 3, "/health did not answer with \(what): \(failures)")
        if !failures.isEmpty { print("RegistryConnectionTests: /health with \(what) failed first: \(failures)") }
        let held = during - before
        #expect(
            held < clients.count * perClient,
            "the registry grew by \(held >> 20) MB (\((held / clients.count) >> 10) KiB each) for \(what)")
        #expect(during <= 600 << 20, "the registry took \(during >> 20) MB with \(what)")
        clients.close()
        var after = residentBytes(server.pid)
        let deadline = Date().addingTimeInterval(10)
        while after - before >= keptAfterClients && Date() < deadline {
            Thread.sleep(forTimeInterval: 0.5)
            after = residentBytes(server.pid)
        }
        let steps = "\(before >> 20) MB before them, \(during >> 20) MB with them, \(after >> 20) MB after"
        #expect(after - before < keptAfterClients, "memory not returned after \(what) left: \(steps)")
        #expect(healthy(server.port))
    }

    @Test(
        "800 clients that never read a download: each holds little of it, /health answers, memory goes back",
        arguments: Download.allCases)
    func nonReadingClients(_ download: Download) throws {
        // The registry raises its soft open-file limit only as far as the hard one it inherits from this process.
        let needed = 800 * FileLimit.perConnection + FileLimit.reserved
        if let hard = Self.hardOpenFileLimit(), hard < needed {
            Issue.record(
                "setup: the hard open-file limit (ulimit -Hn) is \(hard), under the \(needed) 800 connections need")
            return
        }
        try Self.withRegistry(download.arguments, largeModel: download.largeModel) { server, blob in
            let before = Self.settledResidentBytes(server.pid)
            let clients = try NonReadingClients(
                800, port: server.port, request: "GET \(blob) HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            Self.expectBounded(
                clients, server: server, before: before, perClient: Self.heldPerClient,
                what: "800 clients not reading a \(download) download")
        }
    }

    @Test("300 clients each pipelining 300 requests for model information and never reading")
    func pipelinedNonReadingClients() throws {
        try Self.withRegistry { server, _ in
            let before = Self.settledResidentBytes(server.pid)
            let request = String(repeating: "GET /v1/models/birds HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", count: 300)
            let clients = try NonReadingClients(300, port: server.port, request: request)
            Self.expectBounded(
                clients, server: server, before: before, perClient: Self.heldPerClient,
                what: "300 clients pipelining 300 requests each")
        }
    }

    @Test("--max-connections: a connection past the limit waits until one closes, then is served")
    func connectionLimit() throws {
        try Self.withRegistry(["--max-connections", "2"]) { server, _ in
            var held = [try LoopbackSocket(port: server.port), try LoopbackSocket(port: server.port)]
            Thread.sleep(forTimeInterval: 0.3)
            let waiting = try LoopbackSocket(port: server.port)
            _ = waiting.send("GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
            #expect(waiting.readUntilClosed(seconds: 1).text.isEmpty, "served past the limit")
            held.removeFirst()
            #expect(waiting.readUntilClosed(seconds: 5).text.hasPrefix("HTTP/1.1 200"))
            #expect(held.count == 1)
        }
    }

    @Test("HTTP/1.1 without Host, or with two, is answered 400 and closed; HTTP/1.0 is closed after its answer")
    func httpRules() throws {
        try Self.withRegistry { server, _ in
            for head in ["GET /health HTTP/1.1\r\n\r\n", "GET /health HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n"] {
                let socket = try LoopbackSocket(port: server.port)
                _ = socket.send(head)
                let answer = socket.readUntilClosed(seconds: 5)
                #expect(answer.text.hasPrefix("HTTP/1.1 400") && answer.text.contains("Host"), "\(answer.text)")
                #expect(answer.closed)
            }
            let old = try LoopbackSocket(port: server.port)
            _ = old.send("GET /health HTTP/1.0\r\n\r\n")
            let answer = old.readUntilClosed(seconds: 5)
            #expect(answer.text.contains(" 200 ") && answer.closed, "\(answer.text) closed: \(answer.closed)")
            // HTTP/1.0 without Host is still served (Host is HTTP/1.1's rule); keep-alive keeps the connection.
            let kept = try LoopbackSocket(port: server.port)
            _ = kept.send("GET /health HTTP/1.0\r\nConnection: keep-alive\r\n\r\n")
            let keptAnswer = kept.readUntilClosed(seconds: 1)
            #expect(keptAnswer.text.contains(" 200 ") && !keptAnswer.closed)
        }
    }

    @Test("Out of descriptors: the server does not spin on accept, and serves again once connections close")
    func descriptorExhaustion() throws {
        // A hard limit of 200 descriptors: the registry takes 68 connections ((200 - 64 kept for the rest) / 2, as each
        // may stream a model file), and a connection over that waits in the listen queue instead of failing accept4
        // with EMFILE in a loop.
        let folder = TestData.temporaryDirectory("registry-emfile")
        defer { try? FileManager.default.removeItem(at: folder) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        let data = folder.appendingPathComponent("data").path
        process.arguments = [
            "-c", "ulimit -n 200 && exec \"$0\" serve --data \"$1\" --port 0", Executables.registry, data,
        ]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        defer {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        var line = ""
        let deadline = Date().addingTimeInterval(60)
        while !line.contains("serving") || !line.hasSuffix("\n"), Date() < deadline, process.isRunning {
            line += String(decoding: output.fileHandleForReading.availableData, as: UTF8.self)
        }
        let serving = line.split(separator: "\n").first { $0.contains("serving") } ?? ""
        guard let port = serving.split(separator: ":").last.flatMap({ Int($0) }) else {
            Issue.record("the registry did not start: \(line)")
            return
        }
        #expect(line.contains("allows 68 connections"), "\(line)")
        var clients: [LoopbackSocket] = []
        for _ in 0..<250 { clients.append(try LoopbackSocket(port: port)) }
        Thread.sleep(forTimeInterval: 0.5)
        let start = Self.cpuSeconds(process.processIdentifier)
        Thread.sleep(forTimeInterval: 2)
        let used = Self.cpuSeconds(process.processIdentifier) - start
        #expect(used < 0.5, "the server used \(used) s of CPU in 2 s with every descriptor taken")
        clients.removeAll()
        #expect(Self.healthy(port))
    }
}
