import Foundation
import LiteVisionTestSupport
import Testing

/// Empty paths, the root folder and the model cache as outputs (issue 9, paths): refused before any work, with
/// status 2 and a message naming the option.
@Suite("litevision: empty, root and model-cache paths")
struct EmptyAndRootPathCLITests {
    @Test("track: an empty path and the root folder are refused for every output option")
    func trackEmptyAndRoot() throws {
        let (folder, video, _) = try PathSafety.fixtures()
        defer { try? FileManager.default.removeItem(at: folder) }
        for option in ["--json", "--mot", "--annotate"] {
            try PathSafety.expectRefusal(
                ["track", option, ""] + PathSafety.models + [video], option: option, reason: "the path is empty",
                untouched: [video])
            try PathSafety.expectRefusal(
                ["track", option, "/"] + PathSafety.models + [video], option: option, reason: "it is the root folder",
                untouched: [video])
        }
    }

    @Test("detect --annotate: an empty path and the root folder are refused, and nothing is written at /")
    func detectEmptyAndRoot() throws {
        let (folder, _, _) = try PathSafety.fixtures()
        defer { try? FileManager.default.removeItem(at: folder) }
        // A photo with a name of its own, so that a drawing written at the root would be this test's.
        let name = "litevision-root-probe-\(UUID().uuidString)"
        let photo = folder.appendingPathComponent(name + ".jpg").path
        try FileManager.default.copyItem(atPath: TestData.image("burger.jpg"), toPath: photo)
        let second = folder.appendingPathComponent("second.jpg").path
        try FileManager.default.copyItem(atPath: TestData.image("burger.jpg"), toPath: second)
        defer { try? FileManager.default.removeItem(atPath: "/" + name + ".png") }
        for photos in [[photo], [photo, second]] {
            try PathSafety.expectRefusal(
                ["detect", "--annotate", ""] + PathSafety.models + photos, option: "--annotate",
                reason: "the path is empty", untouched: photos)
            for root in ["/", "//", "/.", "/.."] {
                try PathSafety.expectRefusal(
                    ["detect", "--annotate", root] + PathSafety.models + photos, option: "--annotate",
                    reason: "it is the root folder", untouched: photos)
            }
            #expect(!FileManager.default.fileExists(atPath: "/" + name + ".png"))
        }
    }

    @Test("An output inside the model cache is refused: models appear there while the command runs")
    func outputInTheModelCache() throws {
        let (folder, video, photo) = try PathSafety.fixtures()
        defer { try? FileManager.default.removeItem(at: folder) }
        let cache = folder.appendingPathComponent("cache")
        try FileManager.default.createDirectory(at: cache, withIntermediateDirectories: true)
        let reason = "it is inside the model cache \(cache.path)"
        try PathSafety.expectRefusal(
            ["detect", "--annotate", cache.path + "/drawn.png"] + PathSafety.models + [photo], option: "--annotate",
            reason: reason, environment: ["LITEVISION_MODEL_CACHE": cache.path])
        try PathSafety.expectRefusal(
            ["track", "--json", cache.path + "/tracks.json"] + PathSafety.models + [video], option: "--json",
            reason: reason, environment: ["LITEVISION_MODEL_CACHE": cache.path])
        #expect(try FileManager.default.contentsOfDirectory(atPath: cache.path).isEmpty)
    }

    @Test("--cache: an empty path and the root folder are refused before the registry is asked")
    func cacheEmptyAndRoot() throws {
        for cache in ["", "/"] {
            for command in [
                ["label", "--remote-model", "flowers", "--registry", "http://127.0.0.1:1", "--cache", cache]
                    + [TestData.image("daisy.jpeg")],
                ["models", "download", "--registry", "http://127.0.0.1:1", "--cache", cache, "flowers"],
            ] {
                try PathSafety.expectRefusal(
                    command, option: "--cache", reason: cache.isEmpty ? "the path is empty" : "it is the root folder")
            }
        }
    }

    @Test("registry backup to an empty path is refused before anything is copied")
    func backupEmptyPath() throws {
        let folder = TestData.temporaryDirectory("path-safety-backup")
        defer { try? FileManager.default.removeItem(at: folder) }
        let data = folder.appendingPathComponent("data").path
        let token = try PathSafety.run(["registry", "token", "create", "--data", data, "--role", "read"])
        try #require(token.status == 0, "\(token.errors)")
        let before = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        let result = try PathSafety.run(["registry", "backup", "--data", data, ""], in: folder)
        #expect(result.status == 1 && result.errors.contains("the backup folder's path is empty"), "\(result.errors)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == before)
    }
}
