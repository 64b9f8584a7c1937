import Foundation

/// A real MQTT broker on 127.0.0.1: Debian's mosquitto (`/usr/sbin/mosquitto`), with a configuration of its own in a
/// temporary folder: anonymous clients, or only the users of a password file (made with `mosquitto_passwd`), and
/// optionally TLS with a self-signed certificate (which no system authority vouches for).
///
/// It runs under a small Python guard that kills the broker when the test process closes the guard's standard input
/// or dies, so that no broker outlives a test (the broker itself is killed by its process ID: it ignores SIGTERM
/// while the test process blocks it, a mask children inherit). ``stop()`` kills the broker (a crash: clients see their
/// connection end), ``restart()`` starts a new one on the same port, ``pause()`` and ``resume()`` stop and continue
/// it (a broker that no longer reads). A missing Debian package is a thrown ``LoopbackServerError`` that names
/// `scripts/setup.sh --dev`, never a skip.
public final class MQTTTestBroker {
    /// The loopback port the broker listens on (the same after ``restart()``).
    public let port: Int
    /// Whether the listener speaks TLS (`mqtts://`), with a self-signed certificate for 127.0.0.1.
    public let usesTLS: Bool
    private let folder: URL
    private let timeout: Double
    private var process: ServerProcess?
    private var brokerID: pid_t = 0
    private var starts = 0

    static let broker = "/usr/sbin/mosquitto"
    static let passwordTool = "/usr/bin/mosquitto_passwd"

    /// Starts a broker on a free loopback port and returns once it accepts connections. With `users` (name →
    /// password) only they may connect; without, anyone may. With `tls`, the listener speaks TLS. Throws when it
    /// cannot start within `timeout` seconds.
    public init(users: [String: String] = [:], tls: Bool = false, timeout: Double = 10) throws {
        for tool in [Self.broker, Self.passwordTool] where !FileManager.default.isExecutableFile(atPath: tool) {
            throw LoopbackServerError(
                "\(tool) is missing: run scripts/setup.sh --dev (it installs Debian's mosquitto and mosquitto-clients)")
        }
        usesTLS = tls
        self.timeout = timeout
        folder = TestData.temporaryDirectory("mqtt-broker")
        port = try LoopbackPort.unused()
        var configuration = "listener \(port) 127.0.0.1\nlog_dest stderr\nlog_type all\n"
        if users.isEmpty {
            configuration += "allow_anonymous true\n"
        } else {
            let passwords = folder.appendingPathComponent("passwords")
            for (index, (user, password)) in users.sorted(by: { $0.key < $1.key }).enumerated() {
                try Self.run(Self.passwordTool, (index == 0 ? ["-c"] : []) + ["-b", passwords.path, user, password])
            }
            configuration += "allow_anonymous false\npassword_file \(passwords.path)\n"
        }
        if tls {
            let certificate = folder.appendingPathComponent("certificate.pem").path
            let key = folder.appendingPathComponent("key.pem").path
            try Self.run(
                "/usr/bin/openssl",
                [
                    "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", certificate, "-days", "2",
                    "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1",
                ])
            chmod(key, 0o644)  // mosquitto, started as root, reads it as the user mosquitto
            configuration += "certfile \(certificate)\nkeyfile \(key)\n"
        }
        let configurationFile = folder.appendingPathComponent("mosquitto.conf")
        try configuration.write(to: configurationFile, atomically: true, encoding: .utf8)
        try Self.guardScript.write(
            to: folder.appendingPathComponent("guard.py"), atomically: true, encoding: .utf8)
        try launch()
    }

    deinit {
        stop()
        try? FileManager.default.removeItem(at: folder)
    }

    /// `mqtt://[user:password@]127.0.0.1:PORT/prefix` (`mqtts://` with TLS); `password` is percent-encoded.
    public func url(user: String? = nil, password: String? = nil, prefix: String = "litevision") -> String {
        var credentials = ""
        if let user {
            credentials = user + (password.map { ":" + Self.percentEncoded($0) } ?? "") + "@"
        }
        return "\(usesTLS ? "mqtts" : "mqtt")://\(credentials)127.0.0.1:\(port)/\(prefix)"
    }

    /// What the broker logged so far (all of its runs).
    public var log: String {
        (0..<starts).map { (try? String(contentsOf: logFile($0), encoding: .utf8)) ?? "" }.joined()
    }

    /// Kills the broker at once (SIGKILL, as a crash) and returns once its port is free.
    public func stop() {
        if brokerID > 0 {
            kill(brokerID, SIGKILL)
            _ = waitUntil(seconds: 10, every: 0.01) { kill(brokerID, 0) == 0 ? nil : true }
            brokerID = 0
        }
        process?.stopNow()
        process = nil
    }

    /// Starts a new broker on the same port, with the same configuration.
    public func restart() throws {
        stop()
        try launch()
    }

    /// Stops the broker (SIGSTOP): its connections stay open, but it reads and answers nothing.
    public func pause() { if brokerID > 0 { kill(brokerID, SIGSTOP) } }

    /// Continues a paused broker (SIGCONT).
    public func resume() { if brokerID > 0 { kill(brokerID, SIGCONT) } }

    private func logFile(_ start: Int) -> URL { folder.appendingPathComponent("mosquitto-\(start).log") }

    private func launch() throws {
        let started = try ServerProcess(
            name: "mosquitto", executable: "/usr/bin/python3",
            arguments: [
                folder.appendingPathComponent("guard.py").path, Self.broker,
                folder.appendingPathComponent("mosquitto.conf").path, String(port),
            ],
            log: logFile(starts), timeout: timeout)
        starts += 1
        let words = started.firstLine.split(separator: " ")
        guard words.count == 2, words[0] == "ready", let id = pid_t(words[1]) else {
            started.stopNow()
            throw LoopbackServerError("the mosquitto guard printed '\(started.firstLine)' instead of 'ready PID'")
        }
        process = started
        brokerID = id
    }

    /// Runs a tool to its end; throws with its output when it fails.
    private static func run(_ tool: String, _ arguments: [String]) throws {
        guard FileManager.default.isExecutableFile(atPath: tool) else {
            throw LoopbackServerError("\(tool) is missing: run scripts/setup.sh --dev")
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw LoopbackServerError("\(tool) failed with status \(process.terminationStatus): \(text.suffix(2000))")
        }
    }

    /// `text` with everything but unreserved URL characters percent-encoded.
    private static func percentEncoded(_ text: String) -> String {
        text.utf8.map { byte in
            let character = Character(Unicode.Scalar(byte))
            return byte < 0x80 && (character.isLetter || character.isNumber || "-._~".contains(character))
                ? String(character) : String(format: "%%%02X", byte)
        }.joined()
    }

    /// The guard: starts mosquitto, prints `ready PID` once the port accepts connections, exits with the broker, and
    /// kills it when its standard input closes.
    private static let guardScript = #"""
        import os, socket, subprocess, sys, threading, time
        broker_path, configuration, port = sys.argv[1], sys.argv[2], int(sys.argv[3])
        broker = subprocess.Popen([broker_path, "-c", configuration], stdin=subprocess.DEVNULL, stdout=sys.stderr)
        def watch():
            sys.stdin.buffer.read()
            broker.kill()
            os._exit(0)
        threading.Thread(target=watch, daemon=True).start()
        deadline = time.monotonic() + 10
        while True:
            if broker.poll() is not None:
                sys.exit(f"mosquitto exited with status {broker.returncode} before it listened on port {port}")
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                if time.monotonic() > deadline:
                    broker.kill()
                    sys.exit(f"mosquitto did not listen on port {port} within 10 s")
                time.sleep(0.02)
        print("ready", broker.pid, flush=True)
        sys.exit(broker.wait())
        """#
}
