import Foundation
import LiteVision
import LiteVisionImaging
import LiteVisionModelManager
import LiteVisionModelStore
import LiteVisionTestSupport
import Synchronization
import Testing

@testable import LiteRT

/// LiteVision's errors as an iOS app reads ML Kit's: `NSError`s in the domain `com.google.mlkit` with ML Kit's codes
/// and LiteVision's message, in the failure notification and through `any Error`.
@Suite("Errors as NSError: ML Kit's domain and codes, LiteVision's message")
struct MLKitErrorTests {
    /// What an observer of the failure notification read from its `userInfo`.
    struct Failure: Sendable {
        var model: String?
        var domain: String?
        var code: Int?
        var localizedDescription: String?
        var downloadError: ModelDownloadError?
    }

    /// Downloads `route`'s bird model with a manager of its own and returns what its failure notification held.
    static func failedDownload(_ route: String) async throws -> Failure {
        let server = try LoopbackModelServer(serving: ["bird.tflite": TestData.model("bird.tflite")])
        let cache = TestData.temporaryDirectory("nserror-cache")
        defer {
            server.stop()
            try? FileManager.default.removeItem(at: cache)
        }
        let manager = ModelManager(cacheFolder: cache.path)
        let model = CustomRemoteModel(
            remoteModelSource: .url(server.base(route) + "/bird.tflite", sha256: TestData.birdModelSHA256))
        let posted = Mutex<Failure?>(nil)
        let token = NotificationCenter.default.addObserver(
            forName: .mlkitModelDownloadDidFail, object: manager, queue: nil
        ) { notification in
            // As the AutoML sample reads it.
            guard let userInfo = notification.userInfo,
                let remoteModel = userInfo[ModelDownloadUserInfoKey.remoteModel.rawValue] as? RemoteModel,
                let error = userInfo[ModelDownloadUserInfoKey.error.rawValue] as? NSError
            else {
                posted.withLock { $0 = Failure() }
                return
            }
            let failure = Failure(
                model: remoteModel.name, domain: error.domain, code: error.code,
                localizedDescription: error.localizedDescription,
                downloadError: userInfo[ModelDownloadUserInfoKey.downloadError.rawValue] as? ModelDownloadError)
            posted.withLock { $0 = failure }
        }
        defer { NotificationCenter.default.removeObserver(token) }
        do {
            try await manager.downloadModel(model)
            Issue.record("the download from /\(route) succeeded")
        } catch {}
        // The notification is posted before downloadModel returns.
        return try #require(posted.withLock { $0 }, "no failure notification was posted")
    }

    @Test(
        "A failed download's notification holds an NSError: com.google.mlkit, ML Kit's code, LiteVision's message",
        arguments: [("missing", 5), ("corrupt", 102), ("hostile-error", 14)])
    func failureNotification(route: String, code: Int) async throws {
        let failure = try await Self.failedDownload(route)
        #expect(failure.domain == "com.google.mlkit")
        #expect(failure.code == code, "\(failure)")
        let error = try #require(failure.downloadError, "the ModelDownloadError is under .downloadError")
        #expect(failure.localizedDescription == error.description)
        #expect(failure.model == "bird.tflite")
        switch route {
        case "missing":
            #expect(error.reason == .httpStatus(404))
            #expect(failure.localizedDescription?.contains("HTTP 404") == true)
            #expect(error.serverMessage?.contains("no model called bird.tflite") == true)
        case "corrupt":
            guard case .hashMismatch = error.reason else {
                Issue.record("unexpected \(error.reason)")
                return
            }
            #expect(failure.localizedDescription?.contains("not the expected") == true)
        default:
            #expect(error.reason == .httpStatus(503))
        }
    }

    @Test("A thrown VisionError through any Error: its message, and as NSError ML Kit's domain and code")
    func visionErrors() throws {
        let folder = TestData.temporaryDirectory("nserror-vision")
        defer { try? FileManager.default.removeItem(at: folder) }
        let garbage = folder.appendingPathComponent("garbage.tflite").path
        try Data(repeating: 0x5A, count: 4096).write(to: URL(fileURLWithPath: garbage))
        let birdModel = LocalModel(path: TestData.model("bird.tflite"))
        let cases: [(what: String, code: Int, run: () throws -> Void)] = [
            (
                "a missing model", 5,
                {
                    _ = try ImageLabeler(
                        options: CustomImageLabelerOptions(localModel: LocalModel(path: folder.path + "/none.tflite")))
                }
            ),
            (
                "a model that is not TFLite", 100,
                { _ = try ImageLabeler(options: CustomImageLabelerOptions(localModel: LocalModel(path: garbage))) }
            ),
            (
                "an image that is not one", 3,
                {
                    _ = try ImageLabeler(options: CustomImageLabelerOptions(localModel: birdModel)).results(
                        in: try VisionImage(data: Array("not an image".utf8)))
                }
            ),
        ]
        for (what, code, run) in cases {
            do {
                try run()
                Issue.record("\(what) was accepted")
            } catch {
                // `error` is `any Error` here, as in a sample's `catch let error`.
                let visionError = try #require(error as? VisionError, "\(what): \(error)")
                #expect(error.localizedDescription == visionError.description, "\(what)")
                #expect(!error.localizedDescription.contains("The operation could not be completed"))
                let nsError = error as NSError
                #expect(nsError.domain == "com.google.mlkit" && nsError.code == code, "\(what): \(nsError)")
                #expect(nsError.localizedDescription == visionError.description)
            }
        }
    }

    /// The tables of the porting guide's "Errors as NSError": each row's names (in backticks) and code.
    static func guideTables() throws -> [String: [(names: [String], code: Int?)]] {
        let guide = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
            "../../Sources/LiteVision/LiteVision.docc/PortingFromMLKit.md")
        let text = try String(contentsOf: guide, encoding: .utf8)
        var tables: [String: [(names: [String], code: Int?)]] = [:]
        var current: String?
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            guard line.hasPrefix("|") else {
                current = nil
                continue
            }
            let cells = line.split(separator: "|", omittingEmptySubsequences: false).dropFirst().map {
                $0.trimmingCharacters(in: .whitespaces)
            }
            guard cells.count >= 3 else { continue }
            if current == nil {
                current = cells[0]
                continue
            }
            if cells[0].hasPrefix("---") { continue }
            let names = cells[0].split(separator: "`", omittingEmptySubsequences: false).enumerated()
                .filter { $0.offset % 2 == 1 }.map { String($0.element) }
            tables[current!, default: []].append((names, Int(cells[1])))
        }
        return tables
    }

    @Test("Every error takes the code the porting guide's table gives it")
    func documentedCodes() throws {
        let tables = try Self.guideTables()
        let download = ModelDownloadError(url: "https://example.com/m.tflite", expectedSHA256: "", reason: .cancelled)
        let visionErrors: [String: VisionError] = [
            "fileNotReadable": .fileNotReadable(path: "m", reason: "r"),
            "fileNotWritable": .fileNotWritable(path: "m", reason: "r"),
            "invalidModel": .invalidModel(path: "m", reason: "r"),
            "unsupportedModel": .unsupportedModel(path: "m", reason: "r"),
            "invalidLabels": .invalidLabels(path: "m", reason: "r"),
            "imageDecoding": .imageDecoding(.empty),
            "invalidImage": .invalidImage("r"),
            "runtimeUnavailable": .runtimeUnavailable(RuntimeLoadError(attempts: [])),
            "runtime": .runtime(LiteRTError(status: 1, operation: "run")),
            "modelDownload": .modelDownload(download),
            "remoteModelNotDownloaded": .remoteModelNotDownloaded("m"),
        ]
        let reasons: [String: ModelDownloadError.Reason] = [
            "libcurlUnavailable": .libcurlUnavailable(library: "libcurl.so.4", detail: "d"),
            "unreachable": .unreachable(detail: "d"), "hostNotFound": .hostNotFound(detail: "d"),
            "tls": .tls(detail: "d"), "httpStatus": .httpStatus(404), "incomplete": .incomplete(detail: "d"),
            "tooLarge": .tooLarge(limit: 1), "hashMismatch": .hashMismatch(expected: "a", actual: "b", byteCount: 1),
            "fileSystem": .fileSystem(path: "p", detail: "d"), "noSpace": .noSpace(path: "p"),
            "notATFLiteModel": .notATFLiteModel(detail: "d"), "conditionsNotMet": .conditionsNotMet("d"),
            "cancelled": .cancelled, "transfer": .transfer(code: 7, detail: "d"),
            "invalidSource": .invalidSource(detail: "d"),
            "invalidRegistryResponse": .invalidRegistryResponse(detail: "d"),
        ]
        func code(_ reason: ModelDownloadError.Reason) -> Int {
            ModelDownloadError(url: "https://example.com/m.tflite", expectedSHA256: "", reason: reason).errorCode
        }
        func check<Value>(_ title: String, _ samples: [String: Value], code: (Value) -> Int) throws {
            let rows = try #require(tables[title], "the guide has the table \(title)")
            var documented: Set<String> = []
            for row in rows {
                for name in row.names {
                    let sample = try #require(samples[name], "\(title): \(name) is not a case")
                    documented.insert(name)
                    if let expected = row.code { #expect(code(sample) == expected, "\(title): \(name)") }
                }
            }
            #expect(
                documented == Set(samples.keys), "\(title): undocumented \(Set(samples.keys).subtracting(documented))")
        }
        try check("LiteVision error (`VisionError`)", visionErrors) { $0.errorCode }
        try check("Download failure (`ModelDownloadError.Reason`)", reasons, code: code)
        #expect(VisionError.modelDownload(download).errorCode == download.errorCode)
        // HTTP statuses: the listed ones, and the "other" rows by a status of each class.
        let statuses = try #require(tables["HTTP status"])
        for row in statuses {
            let expected = try #require(row.code)
            for name in row.names {
                let status = name == "4xx" ? 418 : name == "5xx" ? 502 : try #require(Int(name), "status \(name)")
                #expect(code(.httpStatus(status)) == expected, "HTTP \(status)")
            }
        }
        #expect(statuses.count == 13)
    }
}
