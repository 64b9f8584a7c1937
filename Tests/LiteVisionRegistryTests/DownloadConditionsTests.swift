import Foundation
import LiteVisionModelManager
import LiteVisionModelStore
import LiteVisionTestSupport
import Testing

/// ML Kit's download conditions with their Linux meanings: cellular access decided by the default route's
/// interface (tested in a network namespace the test makes, with a modem-named interface), and background
/// downloading that waits out a server that is down.
@Suite("Download conditions: cellular networks and background downloads", .serialized)
struct DownloadConditionsTests {
    /// Runs `command` as root (the tests run as root; `ip` is Debian's iproute2).
    @discardableResult
    static func sh(_ command: String) throws -> (status: Int32, output: String, errors: String) {
        try Executables.run("/bin/sh", ["-c", command])
    }

    @Test("allowsCellularAccess false: refused while the default route goes through wwan0, allowed over eth0")
    func cellularInNetworkNamespace() throws {
        let id = getpid() % 200 + 20
        let namespace = "lvcell\(getpid())"
        let hostSide = "lvh\(getpid() % 100000)"
        let subnet = "10.231.\(id)"
        let made = try Self.sh(
            """
            set -e
            ip netns add \(namespace)
            ip link add \(hostSide) type veth peer name wwan0 netns \(namespace)
            ip addr add \(subnet).1/24 dev \(hostSide)
            ip link set \(hostSide) up
            ip netns exec \(namespace) ip link set lo up
            ip netns exec \(namespace) ip addr add \(subnet).2/24 dev wwan0
            ip netns exec \(namespace) ip link set wwan0 up
            ip netns exec \(namespace) ip route add default via \(subnet).1
            """)
        defer { _ = try? Self.sh("ip netns del \(namespace); ip link del \(hostSide) 2>/dev/null") }
        try #require(
            made.status == 0, "the test makes a network namespace with iproute2 (it runs as root): \(made.errors)")

        let folder = TestData.temporaryDirectory("conditions")
        defer { try? FileManager.default.removeItem(at: folder) }
        let data = folder.appendingPathComponent("data").path
        let server = try RegistryProcess(data: data, host: "\(subnet).1")
        defer { server.stop() }
        let tokenFile = try server.makePublishToken(in: folder).file
        let published = try Executables.litevision([
            "models", "publish", "--registry", server.base, "--token-file", tokenFile, "birds",
            TestData.model("bird.tflite"),
        ])
        #expect(published.status == 0, "\(published.errors)")

        func download(_ extra: [String]) throws -> (status: Int32, output: String, errors: String) {
            let cache = folder.appendingPathComponent("cache-\(UUID().uuidString)").path
            return try Executables.run(
                "/usr/bin/env",
                [
                    "ip", "netns", "exec", namespace, Executables.litevision, "models", "download", "--registry",
                    server.base,
                    "birds", "--cache", cache, "--json",
                ] + extra)
        }
        let refused = try download(["--no-cellular"])
        #expect(refused.status == 1, "\(refused.output)")
        #expect(
            refused.errors.contains("modem interface wwan0")
                && refused.errors.contains("cellular access is not allowed"),
            "\(refused.errors)")
        let allowed = try download([])
        #expect(allowed.status == 0 && allowed.output.contains("79510633"), "\(allowed.errors)")

        // The same link named as a wired one: the download is allowed.
        let renamed = try Self.sh(
            """
            set -e
            ip netns exec \(namespace) ip link set wwan0 down
            ip netns exec \(namespace) ip link set wwan0 name eth0
            ip netns exec \(namespace) ip link set eth0 up
            ip netns exec \(namespace) ip route replace default via \(subnet).1 dev eth0
            """)
        try #require(renamed.status == 0, "\(renamed.errors)")
        let wired = try download(["--no-cellular"])
        #expect(wired.status == 0, "\(wired.errors)")
    }

    @Test("allowsBackgroundDownloading: a download waits for a server that is down; a foreground one fails at once")
    func backgroundWaitsForServer() throws {
        let folder = TestData.temporaryDirectory("background")
        defer { try? FileManager.default.removeItem(at: folder) }
        let data = folder.appendingPathComponent("data").path
        var server = try RegistryProcess(data: data)
        let port = server.port
        let tokenFile = try server.makePublishToken(in: folder).file
        #expect(
            try Executables.litevision([
                "models", "publish", "--registry", server.base, "--token-file", tokenFile, "birds",
                TestData.model("bird.tflite"),
            ]).status == 0)
        server.stop()  // the server is down

        let cache = ModelCache(root: folder.appendingPathComponent("cache").path)
        let manager = ModelManager(downloader: ModelDownloader(cache: cache))
        let recorder = RegistryFaultTests.Recorder(manager)
        let model = CustomRemoteModel(
            remoteModelSource: .registry("http://127.0.0.1:\(port)", name: "birds"))

        let started = Date()
        manager.download(model, conditions: ModelDownloadConditions())
        let foreground = recorder.wait(for: 1)
        #expect(foreground.map(\.name) == [.mlkitModelDownloadDidFail])
        guard case .unreachable = foreground.first?.error?.reason else {
            Issue.record("foreground: \(String(describing: foreground.first?.error))")
            return
        }
        #expect(Date().timeIntervalSince(started) < 10)

        let progress = manager.download(
            model, conditions: ModelDownloadConditions(allowsCellularAccess: true, allowsBackgroundDownloading: true))
        Thread.sleep(forTimeInterval: 2)
        #expect(recorder.wait(for: 0).count == 1, "no outcome yet: the background download is waiting")
        server = try RegistryProcess(data: data, port: port)
        defer { server.stop() }
        let posted = recorder.wait(for: 2)
        #expect(posted.map(\.name) == [.mlkitModelDownloadDidFail, .mlkitModelDownloadDidSucceed])
        #expect(manager.isModelDownloaded(model) && progress.completedUnitCount == 3_588_463)
    }
}
