import Foundation
import LiteVisionModelStore
import LiteVisionTestSupport
import Synchronization
import Testing

// Faults of connections, part of the fault suite (serialized with it): oversized uploads cut off at the limit, idle
// and stalled connections closed after their timeouts, TLS.
extension RegistryFaultTests {
    @Test("Uploads over the limit are refused at the limit, not read to the end")
    func oversizedUploadCutOff() throws {
        try Self.withSetup(serverArguments: ["--upload-limit", "1000000"]) { setup in
            let total = 64 << 20
            let connection = try LoopbackSocket(port: setup.server.port)
            #expect(
                connection.send(
                    "POST /v1/models/huge/versions HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer \(setup.token)\r\n"
                        + "Content-Length: \(total)\r\n\r\n"))
            let chunk = [UInt8](repeating: 0x41, count: 64 << 10)
            var sent = 0
            var answer = ""
            while sent < total {
                guard connection.send(chunk) else { break }
                sent += chunk.count
                var poller = pollfd(fd: connection.descriptor, events: Int16(POLLIN), revents: 0)
                if poll(&poller, 1, 0) > 0 {
                    answer = connection.readUntilClosed(seconds: 5).text
                    break
                }
            }
            if answer.isEmpty { answer = connection.readUntilClosed(seconds: 5).text }
            #expect(answer.hasPrefix("HTTP/1.1 413"), "\(answer.prefix(200))")
            #expect(answer.contains("1000000-byte limit"))
            #expect(sent < 16 << 20, "sent \(sent) bytes of \(total) before the refusal")

            // A declared length over the limit is refused before any body byte is sent.
            let declared = try LoopbackSocket(port: setup.server.port)
            #expect(
                declared.send(
                    "POST /v1/models/huge/versions HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer \(setup.token)\r\n"
                        + "Content-Length: \(total)\r\n\r\n"))
            #expect(declared.readUntilClosed(seconds: 3).text.hasPrefix("HTTP/1.1 413"))
        }
    }

    @Test("Idle connections and stalled uploads are closed after their timeouts; the server keeps serving")
    func timeouts() throws {
        try Self.withSetup(serverArguments: ["--idle-timeout", "1", "--stall-timeout", "2"]) { setup in
            let idle = try LoopbackSocket(port: setup.server.port)
            let start = Date()
            let silent = idle.readUntilClosed(seconds: 15)
            #expect(silent.closed && Date().timeIntervalSince(start) < 10)

            let stalled = try LoopbackSocket(port: setup.server.port)
            #expect(
                stalled.send(
                    "POST /v1/models/slow/versions HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer \(setup.token)\r\n"
                        + "Content-Length: 1000000\r\n\r\n" + String(repeating: "A", count: 1000)))
            let stallStart = Date()
            let cut = stalled.readUntilClosed(seconds: 20)
            #expect(cut.closed && Date().timeIntervalSince(stallStart) < 15)

            // A huge body trickled to a route that answered at once is not read to its end.
            let trickle = try LoopbackSocket(port: setup.server.port)
            #expect(
                trickle.send(
                    "POST /v1/models/x/promote?version=1 HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 1000000000\r\n\r\nA"
                ))
            let trickleStart = Date()
            var closedAfter: Double?
            while Date().timeIntervalSince(trickleStart) < 30 {
                var poller = pollfd(fd: trickle.descriptor, events: Int16(POLLIN), revents: 0)
                if poll(&poller, 1, 0) > 0 {
                    var scratch = [UInt8](repeating: 0, count: 4096)
                    if recv(trickle.descriptor, &scratch, scratch.count, 0) <= 0 { break }
                }
                guard trickle.send("A") else { break }
                Thread.sleep(forTimeInterval: 0.5)
                closedAfter = Date().timeIntervalSince(trickleStart)
            }
            #expect((closedAfter ?? 0) < 15, "the trickling connection stayed open \(closedAfter ?? 0) s")

            let health = try LoopbackSocket(port: setup.server.port)
            #expect(health.send("GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"))
            #expect(health.readUntilClosed(seconds: 10).text.hasPrefix("HTTP/1.1 200"))
            // The dropped upload's file is gone and nothing was published.
            Thread.sleep(forTimeInterval: 0.5)
            let stray = (try? FileManager.default.contentsOfDirectory(atPath: setup.data + "/blobs")) ?? []
            #expect(stray.isEmpty, "\(stray)")
            let list = try Executables.litevision(["models", "list", "--registry", setup.server.base])
            #expect(list.output.contains("(no models)"))
        }
    }

    @Test("TLS with a certificate the test makes: clients that trust it work, plain HTTP on the TLS port gets nothing")
    func tls() throws {
        let folder = TestData.temporaryDirectory("registry-tls")
        defer { try? FileManager.default.removeItem(at: folder) }
        let certificate = folder.appendingPathComponent("cert.pem").path
        let key = folder.appendingPathComponent("key.pem").path
        let made = try Executables.run(
            "/usr/bin/env",
            [
                "openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", certificate,
                "-days", "1", "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1",
            ])
        try #require(made.status == 0, "openssl (Debian package openssl) makes the certificate: \(made.errors)")
        try Self.withSetup(serverArguments: ["--tls-cert", certificate, "--tls-key", key]) { setup in
            #expect(setup.server.base.hasPrefix("https://"))
            try setup.publish("birds", TestData.model("bird.tflite"), extra: ["--cacert", certificate])
            let cache = setup.folder.appendingPathComponent("cache").path
            let trusted = try Executables.litevision([
                "models", "download", "--registry", setup.server.base, "birds", "--cache", cache, "--cacert",
                certificate,
                "--json",
            ])
            #expect(trusted.status == 0 && trusted.output.contains("79510633"), "\(trusted.errors)")
            let untrusted = try Executables.litevision(["models", "list", "--registry", setup.server.base])
            #expect(untrusted.status == 1 && untrusted.errors.contains("secure connection"), "\(untrusted.errors)")
            let plain = try Executables.litevision([
                "models", "list", "--registry", "http://127.0.0.1:\(setup.server.port)",
            ])
            #expect(plain.status == 1, "\(plain.output)")
            let raw = try LoopbackSocket(port: setup.server.port)
            #expect(raw.send("GET /v1/models HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"))
            #expect(!raw.readUntilClosed(seconds: 10).text.contains("HTTP/1.1 200"))
        }
    }
}
