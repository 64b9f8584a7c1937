import Foundation
import Hummingbird
import Logging
import ServiceLifecycle
import LiteVisionModelStore
import LiteVisionRegistry
import LiteVisionTestSupport
import Synchronization
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The registry's HTTP API, on a real server started on loopback, with real HTTP clients.
@Suite("Model registry over HTTP (real server on loopback)")
struct RegistryHTTPTests {
    /// A running registry server, its base URL and a publish token.
    struct Server {
        let base: String
        let registry: ModelRegistry
        let publishToken: String
        let readToken: String
    }

    /// Runs `body` against a registry server in a fresh data folder; stops the server afterwards.
    static func withServer(
        uploadLimit: Int = 200_000_000, uploadTrialTimeout: Double? = RegistryService.defaultUploadTrialTimeout,
        _ body: (Server) async throws -> Void
    ) async throws {
        let folder = TestData.temporaryDirectory("registry-http")
        defer { try? FileManager.default.removeItem(at: folder) }
        let registry = try ModelRegistry(dataFolder: folder.path)
        let port = Mutex<Int?>(nil)
        var service = registry.service
        service.uploadTrialTimeout = uploadTrialTimeout
        let app = try RegistryServer.application(
            routes: RegistryRoutes(service: service, uploadLimit: uploadLimit), port: 0,
            onRunning: { bound in port.withLock { $0 = bound } })
        // On threads of its own: the tests' synchronous clients hold threads of the cooperative pool while they
        // wait for this server (see DedicatedThreadExecutor). Stopped by a graceful shutdown, not by cancelling
        // its task: cancelling a task that prefers a task executor while the server's merged sequences run on it
        // deadlocked once in the Swift runtime (the canceller holds the task's status lock and waits for the
        // merge's lock, whose holder waits for that status lock).
        let group = ServiceGroup(services: [app], logger: Logger(label: "registry-http-tests"))
        let running = Task(executorPreference: DedicatedThreadExecutor.shared) { try await group.run() }
        let outcome: Result<Void, any Error>
        do {
            if let bound = try await waitUntil(seconds: 60, every: 0.01, { port.withLock { $0 } }) {
                let server = Server(
                    base: "http://127.0.0.1:\(bound)", registry: registry,
                    publishToken: try await service.createToken(role: .publish),
                    readToken: try await service.createToken(role: .read))
                try await body(server)
            } else {
                Issue.record("the registry did not start within 60 s")
            }
            outcome = .success(())
        } catch {
            outcome = .failure(error)
        }
        await group.triggerGracefulShutdown()
        _ = await running.result
        try outcome.get()
    }

    /// Sends a request and returns the status, the body and the response headers.
    static func send(
        _ method: String, _ url: String, token: String? = nil, body: Data? = nil, headers: [String: String] = [:]
    ) async throws -> (status: Int, body: Data, headers: [AnyHashable: Any]) {
        var request = URLRequest(url: URL(string: url)!)
        request.httpMethod = method
        if let token { request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization") }
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        let (data, response) =
            if let body { try await URLSession.shared.upload(for: request, from: body) } else {
                try await URLSession.shared.data(for: request)
            }
        let http = response as! HTTPURLResponse
        return (http.statusCode, data, http.allHeaderFields)
    }

    static func json(_ data: Data) -> [String: Any] {
        (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] ?? [:]
    }

    static let bird = try! Data(contentsOf: URL(fileURLWithPath: TestData.model("bird.tflite")))

    @Test("Publish needs a publish token; the published version is listed, described and downloadable")
    func publishListDownload() async throws {
        try await Self.withServer { server in
            let url = server.base + "/v1/models/birds/versions"
            // Refused before the body is read, and the connection closed if the body is still arriving 5 s after the
            // answer (`unreadBodyGrace`): a whole model sent by a client slowed down by a busy machine then failed
            // with a send error (curl's 55, "select/poll returned error") instead of the status. A small body is
            // refused the same way.
            let notRead = Data(Self.bird.prefix(1024))
            #expect(try await Self.send("POST", url, body: notRead).status == 401)
            #expect(try await Self.send("POST", url, token: server.readToken, body: notRead).status == 403)
            #expect(
                try await Self.send("POST", url, token: "lvr_" + String(repeating: "0", count: 64), body: notRead)
                    .status == 401)
            let published = try await Self.send("POST", url, token: server.publishToken, body: Self.bird)
            #expect(published.status == 201)
            #expect(Self.json(published.body)["version"] as? Int == 1)

            let list = try await Self.send("GET", server.base + "/v1/models")
            #expect(String(decoding: list.body, as: UTF8.self).contains("\"name\":\"birds\""))
            let info = Self.json(try await Self.send("GET", server.base + "/v1/models/birds?client=device-1").body)
            let served = info["served"] as? [String: Any]
            let sha256 = served?["sha256"] as? String ?? ""
            #expect(sha256 == "79510633209226cbb86b356be5a743e554c01789acd939d73d1fcf8d5b64416f")
            #expect((served?["summary"] as? [String: Any])?["labelCount"] as? Int == 965)

            // LiteVision's own resumable downloader fetches the blob and verifies it.
            let cache = TestData.temporaryDirectory("registry-client")
            defer { try? FileManager.default.removeItem(at: cache) }
            let model = CustomRemoteModel(
                remoteModelSource: .url(server.base + (info["servedBlob"] as? String ?? ""), sha256: sha256))
            let installed = try ModelDownloader(cache: ModelCache(root: cache.path)).download(model)
            #expect(try Data(contentsOf: URL(fileURLWithPath: installed.path)) == Self.bird)
        }
    }

    @Test("Blobs are immutable and cacheable, and honour If-None-Match and Range")
    func blobHeaders() async throws {
        try await Self.withServer { server in
            let published = Self.json(
                try await Self.send(
                    "POST", server.base + "/v1/models/birds/versions", token: server.publishToken, body: Self.bird
                ).body)
            let sha256 = published["sha256"] as? String ?? ""
            let blob = server.base + "/v1/blobs/" + sha256
            let whole = try await Self.send("GET", blob)
            #expect(whole.status == 200 && whole.body == Self.bird)
            #expect((whole.headers["Cache-Control"] as? String)?.contains("immutable") == true)
            #expect(
                whole.headers["Etag"] as? String == "\"\(sha256)\""
                    || whole.headers["ETag"] as? String == "\"\(sha256)\"")
            #expect(try await Self.send("GET", blob, headers: ["If-None-Match": "\"\(sha256)\""]).status == 304)
            let part = try await Self.send("GET", blob, headers: ["Range": "bytes=1000-1999"])
            #expect(part.status == 206 && part.body == Self.bird[1000..<2000])
            #expect(part.headers["Content-Range"] as? String == "bytes 1000-1999/\(Self.bird.count)")
            #expect(try await Self.send("GET", blob, headers: ["Range": "bytes=99999999-"]).status == 416)
            let tail = try await Self.send("GET", blob, headers: ["Range": "bytes=-500"])
            #expect(tail.status == 206 && tail.body == Self.bird.suffix(500))
            let malformed = try await Self.send("GET", blob, headers: ["Range": "bytes=5-3"])
            #expect(malformed.status == 200 && malformed.body == Self.bird)  // ignored, as HTTP allows
            #expect(
                try await Self.send("GET", server.base + "/v1/blobs/" + String(repeating: "0", count: 64)).status == 404
            )
            #expect(try await Self.send("GET", server.base + "/v1/blobs/..%2F..%2Fetc%2Fpasswd").status == 400)
        }
    }

    @Test("Bad names, non-models and oversized uploads are refused with the reason; nothing is listed")
    func refusals() async throws {
        try await Self.withServer(uploadLimit: 100_000) { server in
            let tooLong = String(repeating: "x", count: 65)
            let badName = try await Self.send(
                "POST", server.base + "/v1/models/\(tooLong)/versions", token: server.publishToken, body: Self.bird)
            #expect(badName.status == 400)
            #expect((Self.json(badName.body)["error"] as? String)?.contains("invalid model name") == true)
            let page = try await Self.send(
                "POST", server.base + "/v1/models/page/versions", token: server.publishToken, body: Data("<html>".utf8))
            #expect(page.status == 422)
            let big = try await Self.send(
                "POST", server.base + "/v1/models/big/versions", token: server.publishToken, body: Self.bird)
            #expect(big.status == 413)
            let list = Self.json(try await Self.send("GET", server.base + "/v1/models").body)
            #expect((list["models"] as? [Any])?.isEmpty == true)
        }
    }

    @Test("Corrupt models are refused with 422 and the verifier's reason: a cut file, an endless loop, deep nesting")
    func corruptModels() async throws {
        let huge = try #require(DamagedFiles.birdWithHugeInput([UInt8](Self.bird)))
        var badRoot = [UInt8](Self.bird)
        badRoot[0] = 0xFF  // the root table's offset points past the end of the file
        badRoot[1] = 0xFF
        badRoot[2] = 0xFF
        let cases: [(String, Data, String)] = [
            ("huge", Data(huge), "larger than the 268435456-byte limit"),
            ("offset", Data(badRoot), "not a valid TFLite model"),
            ("cut", Self.bird.prefix(Self.bird.count / 3), "not a valid TFLite model"),
            // Control flow that would crash or hang every client (issue 23): refused at the door.
            ("loop", Data(ControlFlowModels.classifier(loop: .constantTrue)), "is the constant true"),
            ("chain", Data(ControlFlowModels.classifier(chain: 50_000)), "the model has 50003 subgraphs"),
            ("nested", Data(ControlFlowModels.classifier(chain: 65)), "nest subgraphs 65 deep"),
        ]
        try await Self.withServer { server in
            for (name, body, reason) in cases {
                let answer = try await Self.send(
                    "POST", server.base + "/v1/models/\(name)/versions", token: server.publishToken, body: body)
                let message = Self.json(answer.body)["error"] as? String ?? ""
                #expect(answer.status == 422, "\(name): \(message)")
                #expect(message.contains("not a model LiteVision can use") && message.contains(reason), "\(message)")
            }
            let list = Self.json(try await Self.send("GET", server.base + "/v1/models").body)
            #expect((list["models"] as? [Any])?.isEmpty == true)
            // The server is still up and takes the intact model.
            let intact = try await Self.send(
                "POST", server.base + "/v1/models/huge/versions", token: server.publishToken, body: Self.bird)
            #expect(intact.status == 201)
        }
    }

    @Test("Labels clients refuse are refused with 422 and the client's reason: too few, too many lines")
    func refusedLabels() async throws {
        let bird = [UInt8](Self.bird)
        let short = try #require(
            RelabeledModel.make(bird) { name, text in
                name == "0-labels-en.txt" ? RelabeledModel.dropLastLines(100, of: text) : text
            })
        // More lines than the 1,000,000 a client reads (2.4 MB, stored: as a client, the check counts the lines).
        let huge = try #require(
            RelabeledModel.make(bird) { _, _ in
                [UInt8](repeating: 0, count: 1_200_000).flatMap { _ -> [UInt8] in [120, 10] }
            })
        let cases: [(String, [UInt8], String)] = [
            ("short", short, "it has 865 labels but the model scores 965 classes"),
            ("huge", huge, "more than the 1000000 labels LiteVision reads"),
        ]
        try await Self.withServer { server in
            for (name, body, reason) in cases {
                let answer = try await Self.send(
                    "POST", server.base + "/v1/models/\(name)/versions", token: server.publishToken, body: Data(body))
                let message = Self.json(answer.body)["error"] as? String ?? ""
                #expect(answer.status == 422, "\(name): \(message)")
                #expect(message.contains(reason), "\(name): \(message)")
            }
            // The same surgery keeping every line is accepted: the refusals are the labels'.
            let same = try #require(RelabeledModel.make(bird) { _, text in text })
            let intact = try await Self.send(
                "POST", server.base + "/v1/models/same/versions", token: server.publishToken, body: Data(same))
            #expect(intact.status == 201, "\(String(decoding: intact.body, as: UTF8.self))")
        }
    }

    @Test("Private blobs are not publicly cacheable and vary by Authorization; public ones are")
    func privateBlobCaching() async throws {
        try await Self.withServer { server in
            let published = try await Self.send(
                "POST", server.base + "/v1/models/secret/versions?private=true", token: server.publishToken,
                body: Self.bird)
            let blob = server.base + "/v1/blobs/" + (Self.json(published.body)["sha256"] as? String ?? "")
            for method in ["HEAD", "GET"] {
                let answer = try await Self.send(method, blob, token: server.readToken)
                #expect(answer.status == 200)
                let control = answer.headers["Cache-Control"] as? String ?? ""
                #expect(control.contains("private") && control.contains("no-store") && !control.contains("public"))
                #expect(answer.headers["Vary"] as? String == "Authorization")
            }
            // Refused without a token, and with a token that is not one (refused before the owners are looked up).
            for token in [nil, String(repeating: "0", count: 64)] {
                let refused = try await Self.send("HEAD", blob, token: token)
                #expect(refused.status == 401 && refused.headers["Vary"] as? String == "Authorization")
                #expect((refused.headers["Cache-Control"] as? String)?.contains("no-store") == true)
            }
            // The same file published as a public model too: public, unchanged.
            _ = try await Self.send(
                "POST", server.base + "/v1/models/open/versions", token: server.publishToken, body: Self.bird)
            let open = try await Self.send("HEAD", blob)
            #expect(open.headers["Cache-Control"] as? String == "public, max-age=31536000, immutable")
            #expect(open.headers["Vary"] == nil)
        }
    }

    @Test("An upload is run once before it is published: a loop only running shows endless is refused at its deadline")
    func trialRun() async throws {
        try await Self.withServer(uploadTrialTimeout: 1) { server in
            let started = ContinuousClock.now
            let stuck = Task { () -> (status: Int, body: Data) in
                let answer = try await Self.send(
                    "POST", server.base + "/v1/models/stuck/versions", token: server.publishToken,
                    body: Data(ControlFlowModels.classifier(loop: .stuck)))
                return (answer.status, answer.body)
            }
            // The trial runs on a thread of its own: the server answers meanwhile.
            try await Task.sleep(for: .milliseconds(300))
            // Timed on the servers' own threads: the cooperative pool may be held for seconds by the synchronous
            // clients of tests running beside this one, which would delay this test, not the server.
            let health = Task(executorPreference: DedicatedThreadExecutor.shared) {
                let healthStarted = ContinuousClock.now
                let status = try await Self.send("GET", server.base + "/health").status
                return (status, ContinuousClock.now - healthStarted)
            }
            let (healthStatus, healthTime) = try await health.value
            #expect(healthStatus == 200)
            #expect(healthTime < .milliseconds(900), "under the trial's 1 s deadline")
            let answer = try await stuck.value
            let message = Self.json(answer.body)["error"] as? String ?? ""
            #expect(answer.status == 422, "\(message)")
            #expect(message.contains("failed its trial run (one inference within 1.0 s)"), "\(message)")
            // Refused, not hung (trials of the other suites' uploads in this process run one at a time before it).
            #expect(ContinuousClock.now - started < .seconds(90))
            // A loop that ends, and the shared classifier, pass their trial.
            for (name, body) in [("counting", Data(ControlFlowModels.classifier())), ("birds", Self.bird)] {
                let published = try await Self.send(
                    "POST", server.base + "/v1/models/\(name)/versions", token: server.publishToken, body: body)
                #expect(published.status == 201, "\(name): \(String(decoding: published.body, as: UTF8.self))")
            }
            let list = Self.json(try await Self.send("GET", server.base + "/v1/models").body)
            #expect((list["models"] as? [[String: Any]])?.count == 2)
        }
    }

    @Test("Promote, rollout and delete over HTTP")
    func changes() async throws {
        try await Self.withServer { server in
            let versions = server.base + "/v1/models/m/versions"
            _ = try await Self.send("POST", versions, token: server.publishToken, body: Self.bird)
            let labeler = try Data(contentsOf: URL(fileURLWithPath: TestData.model("object_labeler.tflite")))
            _ = try await Self.send("POST", versions, token: server.publishToken, body: labeler)
            #expect(try await Self.send("POST", server.base + "/v1/models/m/promote?version=1").status == 401)
            #expect(
                try await Self.send("POST", server.base + "/v1/models/m/promote?version=1", token: server.publishToken)
                    .status == 200)
            #expect(try await server.registry.service.info("m").model.latestVersion == 1)
            let rollout = try await Self.send(
                "POST", server.base + "/v1/models/m/rollout?version=2&percent=30", token: server.publishToken)
            #expect(rollout.status == 200 && Self.json(rollout.body)["rolloutPercent"] as? Int == 30)
            #expect(try await Self.send("DELETE", versions + "/2", token: server.publishToken).status == 204)
            #expect(try await server.registry.service.info("m").versions.map(\.version) == [1])
            #expect(try await Self.send("DELETE", versions + "/7", token: server.publishToken).status == 404)
        }
    }

    @Test("A deleted version's number is never given again; a model without versions is not listed")
    func versionNumbersAreNotReused() async throws {
        try await Self.withServer { server in
            let versions = server.base + "/v1/models/m/versions"
            for _ in 0..<2 { _ = try await Self.send("POST", versions, token: server.publishToken, body: Self.bird) }
            #expect(try await Self.send("DELETE", versions + "/2", token: server.publishToken).status == 204)
            let republished = try await Self.send("POST", versions, token: server.publishToken, body: Self.bird)
            #expect(Self.json(republished.body)["version"] as? Int == 3)
            for version in [1, 3] {
                #expect(
                    try await Self.send("DELETE", versions + "/\(version)", token: server.publishToken).status == 204)
            }
            let list = try await Self.send("GET", server.base + "/v1/models")
            #expect((Self.json(list.body)["models"] as? [Any])?.isEmpty == true)
            let again = try await Self.send("POST", versions, token: server.publishToken, body: Self.bird)
            #expect(Self.json(again.body)["version"] as? Int == 4)
        }
    }

    @Test("If-None-Match: * is answered 304; the bearer scheme name is case-insensitive")
    func httpDetails() async throws {
        try await Self.withServer { server in
            let published = try await Self.send(
                "POST", server.base + "/v1/models/m/versions", token: server.publishToken, body: Self.bird)
            let sha256 = try #require(Self.json(published.body)["sha256"] as? String)
            let blob = server.base + "/v1/blobs/" + sha256
            #expect(try await Self.send("GET", blob, headers: ["If-None-Match": "*"]).status == 304)
            #expect(try await Self.send("GET", blob, headers: ["If-None-Match": "\"other\""]).status == 200)
            let lower = try await Self.send(
                "POST", server.base + "/v1/models/m/promote?version=1",
                headers: ["Authorization": "bearer " + server.publishToken])
            #expect(lower.status == 200)
        }
    }

    @Test("Range headers: single ranges served, overflowing ends clamped, anything else ignored")
    func rangeParsing() {
        #expect(RegistryRoutes.byteRange("bytes=0-0", size: 10) == .range(0...0))
        #expect(RegistryRoutes.byteRange("bytes=5-", size: 10) == .range(5...9))
        #expect(RegistryRoutes.byteRange("bytes=-3", size: 10) == .range(7...9))
        #expect(RegistryRoutes.byteRange("bytes=-30", size: 10) == .range(0...9))
        #expect(RegistryRoutes.byteRange("bytes=0-99999999999999999999999", size: 10) == .range(0...9))
        #expect(RegistryRoutes.byteRange("bytes=-99999999999999999999999", size: 10) == .range(0...9))
        #expect(RegistryRoutes.byteRange("bytes=99999999999999999999999-", size: 10) == .unsatisfiable)
        #expect(RegistryRoutes.byteRange("bytes=10-", size: 10) == .unsatisfiable)
        #expect(RegistryRoutes.byteRange("bytes=+5-10", size: 10) == .whole)
        #expect(RegistryRoutes.byteRange("bytes=5-+6", size: 10) == .whole)
        #expect(RegistryRoutes.byteRange("bytes=6-5", size: 10) == .whole)
        #expect(RegistryRoutes.byteRange("bytes=0-1,3-4", size: 10) == .whole)
        #expect(RegistryRoutes.byteRange("items=0-1", size: 10) == .whole)
    }
}
