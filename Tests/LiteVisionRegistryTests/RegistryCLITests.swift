import Foundation
import LiteVisionModelStore
import LiteVisionTestSupport
import Synchronization
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The registry and its clients as users run them: `litevision registry serve` (a real server process on
/// loopback), `litevision registry token create`, `litevision models …`, `litevision label --remote-model`.
@Suite("Registry command line: serve, tokens, models, label --remote-model", .serialized)
struct RegistryCLITests {
    /// A served registry in a fresh folder with a publish token in a file, and a fresh model cache.
    struct Setup {
        let folder: URL
        let server: RegistryProcess
        let tokenFile: String
        var cache: String { folder.appendingPathComponent("cache").path }

        func models(_ arguments: [String]) throws -> (status: Int32, output: String, errors: String) {
            try Executables.litevision(["models"] + arguments)
        }

        /// `models download --json` of `name`: the printed object.
        func download(_ name: String, _ extra: [String] = []) throws -> [String: Any] {
            let result = try models(
                ["download", "--registry", server.base, name, "--cache", cache, "--json"] + extra)
            guard result.status == 0,
                let object = try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any]
            else {
                Issue.record("download failed: \(result.errors)")
                return [:]
            }
            return object
        }
    }

    static func withRegistry(_ body: (Setup) throws -> Void) throws {
        let folder = TestData.temporaryDirectory("registry-cli")
        defer { try? FileManager.default.removeItem(at: folder) }
        let data = folder.appendingPathComponent("data").path
        let server = try RegistryProcess(data: data)
        defer { server.stop() }
        let token = try Executables.litevision(["registry", "token", "create", "--data", data, "--role", "publish"])
        #expect(token.status == 0, "\(token.errors)")
        let tokenFile = folder.appendingPathComponent("publish.token").path
        try Data(token.output.utf8).write(to: URL(fileURLWithPath: tokenFile))
        try body(Setup(folder: folder, server: server, tokenFile: tokenFile))
    }

    static let birdSHA256 = "79510633209226cbb86b356be5a743e554c01789acd939d73d1fcf8d5b64416f"

    @Test("publish → download → label --remote-model gives exactly the local labels; v2, promote, rollout, delete")
    func publishDownloadLabel() throws {
        try Self.withRegistry { setup in
            let registry = setup.server.base
            let published = try setup.models([
                "publish", "--registry", registry, "--token-file", setup.tokenFile, "birds",
                TestData.model("bird.tflite"),
            ])
            #expect(published.status == 0, "\(published.errors)")
            #expect(published.output.contains("published birds version 1"))

            let v1 = try setup.download("birds")
            #expect(v1["name"] as? String == "birds" && v1["version"] as? Int == 1)
            #expect(v1["sha256"] as? String == Self.birdSHA256)
            let path = try #require(v1["path"] as? String)
            #expect(
                try Data(contentsOf: URL(fileURLWithPath: path))
                    == Data(contentsOf: URL(fileURLWithPath: TestData.model("bird.tflite"))))

            let image = TestData.image("bird.jpg")
            let remote = try Executables.litevision([
                "label", "--json", "--remote-model", "birds", "--registry", registry, "--cache", setup.cache, image,
            ])
            let local = try Executables.litevision(["label", "--json", "--model", TestData.model("bird.tflite"), image])
            #expect(remote.status == 0 && local.status == 0, "\(remote.errors) \(local.errors)")
            #expect(remote.output.contains("Grey Heron"))
            #expect(remote.output == local.output)

            // v2: another classifier under the same name; download fetches it and label uses it.
            let flowers = TestData.model("mobilenet_v1_025_float.tflite")
            #expect(
                try setup.models(["publish", "--registry", registry, "--token-file", setup.tokenFile, "birds", flowers])
                    .status == 0)
            let v2 = try setup.download("birds")
            #expect(v2["version"] as? Int == 2 && v2["sha256"] as? String != Self.birdSHA256)
            #expect(!FileManager.default.fileExists(atPath: path))  // the previous version's file is gone
            let remote2 = try Executables.litevision([
                "label", "--json", "--remote-model", "birds", "--registry", registry, "--cache", setup.cache, image,
            ])
            let local2 = try Executables.litevision(["label", "--json", "--model", flowers, image])
            #expect(remote2.output == local2.output && remote2.output != remote.output)

            // Promote v1 (rollback): clients get v1 again.
            let promoted = try setup.models([
                "promote", "--registry", registry, "--token-file", setup.tokenFile, "birds", "1",
            ])
            #expect(promoted.status == 0 && promoted.output.contains("latest 1"), "\(promoted.errors)")
            #expect(try setup.download("birds")["version"] as? Int == 1)

            // Rollout of v2 to 100 %: every client gets v2; 0 % ends it.
            #expect(
                try setup.models([
                    "rollout", "--registry", registry, "--token-file", setup.tokenFile, "birds", "2", "--percent",
                    "100",
                ]).status == 0)
            #expect(try setup.download("birds", ["--client-id", "robot-7"])["version"] as? Int == 2)
            #expect(
                try setup.models([
                    "rollout", "--registry", registry, "--token-file", setup.tokenFile, "birds", "2", "--percent", "0",
                ]).status == 0)
            #expect(try setup.download("birds", ["--client-id", "robot-7"])["version"] as? Int == 1)

            // list, info, delete.
            let list = try setup.models(["list", "--registry", registry, "--json"])
            #expect(list.status == 0 && list.output.contains("\"name\":\"birds\""))
            #expect(
                try setup.models(["delete", "--registry", registry, "--token-file", setup.tokenFile, "birds", "2"])
                    .status == 0)
            let info = try setup.models(["info", "--registry", registry, "birds"])
            #expect(info.status == 0 && info.output.contains("v1 ") && !info.output.contains("v2 "), "\(info.output)")
        }
    }

    @Test("Refusals are explained: no token, a wrong registry address, an unknown model, a non-model upload")
    func refusals() throws {
        try Self.withRegistry { setup in
            let registry = setup.server.base
            let noToken = try setup.models(["publish", "--registry", registry, "birds", TestData.model("bird.tflite")])
            #expect(
                noToken.status == 1 && noToken.errors.contains("HTTP 401") && noToken.errors.contains("publish token"))
            let notModel = try setup.models([
                "publish", "--registry", registry, "--token-file", setup.tokenFile, "notes", TestData.image("bird.jpg"),
            ])
            #expect(notModel.status == 1 && notModel.errors.contains("HTTP 422"), "\(notModel.errors)")
            let unknown = try setup.models(["download", "--registry", registry, "nothing", "--cache", setup.cache])
            #expect(
                unknown.status == 1 && unknown.errors.contains("HTTP 404")
                    && unknown.errors.contains("nothing was not found"))
            let badName = try setup.models(["info", "--registry", registry, "../etc"])
            #expect(badName.status == 1 && badName.errors.contains("not a registry model name"))
            let refused = try setup.models(["list", "--registry", "http://127.0.0.1:1"])
            #expect(refused.status == 1 && refused.errors.contains("could not be reached"), "\(refused.errors)")
            // A certificate file that is a FIFO would block libcurl's TLS setup forever: refused at once.
            let fifo = setup.folder.appendingPathComponent("ca.fifo").path
            #expect(mkfifo(fifo, 0o600) == 0)
            let fifoCA = try setup.models(["list", "--registry", registry, "--cacert", fifo])
            #expect(fifoCA.status == 1 && fifoCA.errors.contains("certificate file cannot be used"), "\(fifoCA.errors)")
            let noRegistry = try Executables.litevision(
                ["models", "list"], environment: ["LITEVISION_REGISTRY": ""])
            #expect(noRegistry.status == 2 && noRegistry.errors.contains("--registry"))
        }
    }

    @Test("A private model is listed, described and served only with a token that may read it")
    func privateModel() throws {
        try Self.withRegistry { setup in
            let registry = setup.server.base
            #expect(
                try setup.models([
                    "publish", "--registry", registry, "--token-file", setup.tokenFile, "--private", "secret",
                    TestData.model("bird.tflite"),
                ]).status == 0)
            let data = setup.server.data
            func token(_ arguments: [String]) throws -> String {
                let made = try Executables.litevision(["registry", "token", "create", "--data", data] + arguments)
                let file = setup.folder.appendingPathComponent("t\(arguments.count)-\(arguments.last!).token").path
                try Data(made.output.utf8).write(to: URL(fileURLWithPath: file))
                return file
            }
            let readSecret = try token(["--role", "read", "--model", "secret"])
            let readOther = try token(["--role", "read", "--model", "other"])

            let anonymous = try setup.models(["download", "--registry", registry, "secret", "--cache", setup.cache])
            #expect(
                anonymous.status == 1 && anonymous.errors.contains("HTTP 401") && anonymous.errors.contains("private"))
            let wrong = try setup.models([
                "download", "--registry", registry, "secret", "--cache", setup.cache, "--token-file", readOther,
            ])
            #expect(wrong.status == 1 && wrong.errors.contains("HTTP 403"), "\(wrong.errors)")
            #expect(!(try setup.models(["list", "--registry", registry]).output.contains("secret")))
            #expect(
                try setup.models(["list", "--registry", registry, "--token-file", readSecret]).output.contains("secret")
            )
            let granted = try setup.download("secret", ["--token-file", readSecret])
            #expect(granted["sha256"] as? String == Self.birdSHA256)

            // The blob itself is refused without the token, too.
            var request = URLRequest(url: URL(string: registry + "/v1/blobs/" + Self.birdSHA256)!)
            request.httpMethod = "HEAD"
            let status = try Self.status(of: request)
            #expect(status == 401)

            // /metrics needs no token, so it names no private model.
            let metrics = try Self.send(URLRequest(url: URL(string: registry + "/metrics")!)).body
            #expect(!metrics.contains("secret") && metrics.contains("model=\"(private)\""), "\(metrics)")
        }
    }

    /// The status of a request, waiting synchronously (the cooperative pool may be busy with other tests).
    static func status(of request: URLRequest) throws -> Int { try send(request).status }

    /// The status and body of a request, waiting synchronously.
    static func send(_ request: URLRequest) throws -> (status: Int, body: String) {
        let result = Mutex<Result<(Int, String), any Error>?>(nil)
        URLSession.shared.dataTask(with: request) { data, response, error in
            result.withLock {
                $0 =
                    error.map { .failure($0) }
                    ?? .success(
                        (
                            (response as? HTTPURLResponse)?.statusCode ?? 0,
                            String(decoding: data ?? Data(), as: UTF8.self)
                        ))
            }
        }.resume()
        return try waitUntil(seconds: 60, every: 0.01) { result.withLock { $0 } }?.get() ?? (0, "")
    }

    @Test("Prometheus metrics count requests, bytes and downloads by model and version; changes are logged")
    func metricsAndLogs() throws {
        try Self.withRegistry { setup in
            let registry = setup.server.base
            #expect(
                try setup.models([
                    "publish", "--registry", registry, "--token-file", setup.tokenFile, "birds",
                    TestData.model("bird.tflite"),
                ]).status == 0)
            #expect(try setup.download("birds")["version"] as? Int == 1)
            #expect(try setup.models(["info", "--registry", registry, "nothing"]).status == 1)
            let (status, metrics) = try Self.send(URLRequest(url: URL(string: registry + "/metrics")!))
            #expect(status == 200)
            let lines = metrics.split(separator: "\n").map(String.init)
            #expect(
                lines.contains("litevision_registry_downloads_total{model=\"birds\",version=\"1\"} 1"), "\(metrics)")
            #expect(lines.contains("litevision_registry_blob_bytes_total 3588463"))
            #expect(lines.contains("litevision_registry_publishes_total{outcome=\"published\"} 1"))
            #expect(
                lines.contains { $0.hasPrefix("litevision_registry_requests_total{method=\"GET\",status=\"404\"}") })
            #expect(
                lines.contains { $0.hasPrefix("hb_requests") }, "swift-metrics bootstrapped with the same collector")
            let log = setup.server.output
            #expect(log.contains("published") && log.contains("model=birds") && log.contains("version=1"), "\(log)")
        }
    }

    @Test("token list shows ids, roles, models and last use, never a token; revoke by id or file; --expires-in")
    func tokenLifecycle() throws {
        try Self.withRegistry { setup in
            let data = setup.server.data
            let publish = { (file: String) in
                try setup.models([
                    "publish", "--registry", setup.server.base, "--token-file", file, "birds",
                    TestData.model("bird.tflite"),
                ])
            }
            #expect(try publish(setup.tokenFile).status == 0)
            let reader = try Executables.litevision(
                ["registry", "token", "create", "--data", data, "--role", "read", "--model", "birds"])
            let brief = try Executables.litevision(
                ["registry", "token", "create", "--data", data, "--role", "publish", "--expires-in", "2s"])
            #expect(reader.status == 0 && brief.status == 0, "\(reader.errors) \(brief.errors)")
            let briefFile = setup.folder.appendingPathComponent("brief.token").path
            try Data(brief.output.utf8).write(to: URL(fileURLWithPath: briefFile))
            #expect(try publish(briefFile).status == 0, "valid before it expires")

            let list = try Executables.litevision(["registry", "token", "list", "--data", data])
            #expect(list.status == 0, "\(list.errors)")
            let rows = list.output.split(separator: "\n").dropFirst().map { $0.split(separator: "\t") }
            #expect(rows.count == 3 && rows.map { $0[1] } == ["publish", "read", "publish"], "\(list.output)")
            #expect(rows[1][2] == "birds" && rows[0][5] != "-" && rows[1][5] == "-", "\(list.output)")
            #expect(rows[2][4] != "-", "the expiry is shown")
            let secrets = [setup.tokenFile, briefFile].compactMap { try? String(contentsOfFile: $0, encoding: .utf8) }
            for secret in secrets + [reader.output] {
                #expect(!list.output.contains(secret.trimmingCharacters(in: .whitespacesAndNewlines).dropFirst(4)))
            }

            Thread.sleep(forTimeInterval: 2.5)
            let expired = try publish(briefFile)
            #expect(expired.status != 0 && expired.errors.contains("401"), "\(expired.errors)")

            let byFile = try Executables.litevision(
                ["registry", "token", "revoke", "--data", data, "--token-file", setup.tokenFile])
            #expect(byFile.status == 0 && byFile.output.contains("revoked token 1"), "\(byFile.errors)")
            let refused = try publish(setup.tokenFile)
            #expect(refused.status != 0 && refused.errors.contains("401"), "\(refused.errors)")
            let byID = try Executables.litevision(["registry", "token", "revoke", "--data", data, "2"])
            #expect(byID.status == 0, "\(byID.errors)")
            let again = try Executables.litevision(["registry", "token", "revoke", "--data", data, "2"])
            #expect(again.status == 1 && again.errors.contains("token 2"), "\(again.errors)")
            let bad = try Executables.litevision(
                ["registry", "token", "create", "--data", data, "--role", "read", "--expires-in", "soon"])
            #expect(bad.status != 0 && bad.errors.contains("--expires-in"), "\(bad.errors)")
        }
    }

    @Test("Ported ML Kit code: FirebaseModelSource(name:) downloads from the registry named by LITEVISION_REGISTRY")
    func firebaseModelSource() throws {
        try Self.withRegistry { setup in
            #expect(
                try setup.models([
                    "publish", "--registry", setup.server.base, "--token-file", setup.tokenFile, "birds",
                    TestData.model("bird.tflite"),
                ]).status == 0)
            let cache = ModelCache(root: setup.cache)
            unsetenv("LITEVISION_REGISTRY")
            let unconfigured = CustomRemoteModel(remoteModelSource: FirebaseModelSource(name: "birds"))
            do throws(ModelDownloadError) {
                _ = try ModelDownloader(cache: cache).download(unconfigured)
                Issue.record("a download without a registry succeeded")
            } catch {
                guard case .invalidSource(let detail) = error.reason else {
                    Issue.record("\(error)")
                    return
                }
                #expect(detail.contains("set LITEVISION_REGISTRY"))
            }
            setenv("LITEVISION_REGISTRY", setup.server.base, 1)
            let model = CustomRemoteModel(remoteModelSource: FirebaseModelSource(name: "birds"))
            unsetenv("LITEVISION_REGISTRY")
            #expect(
                model
                    == CustomRemoteModel(
                        remoteModelSource: .registry(setup.server.base, name: "birds")))
            let installed = try ModelDownloader(cache: cache).download(model)
            #expect(installed.sha256 == Self.birdSHA256 && installed.version == 1)
        }
    }

    @Test("A second server on the same data folder is refused; the first keeps serving")
    func oneServerPerFolder() throws {
        try Self.withRegistry { setup in
            #expect(throws: RegistryProcessError.self) { _ = try RegistryProcess(data: setup.server.data) }
            #expect(setup.server.isRunning)
            let listed = try setup.models(["list", "--registry", setup.server.base])
            #expect(listed.status == 0)
        }
    }
}
