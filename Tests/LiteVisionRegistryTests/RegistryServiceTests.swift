import Foundation
@testable import LiteVisionRegistry
import LiteVisionTestSupport
import Synchronization
import Testing

/// The registry's service on a real data folder (SQLite through GRDB, blobs on disk), without HTTP.
@Suite("Registry service: publish, versions, rollout, tokens, crash cleanup")
struct RegistryServiceTests {
    static func withRegistry(_ body: (RegistryService, URL) async throws -> Void) async throws {
        let folder = TestData.temporaryDirectory("registry")
        defer { try? FileManager.default.removeItem(at: folder) }
        try await body(Self.service(try ModelRegistry(dataFolder: folder.path)), folder)
    }

    /// The service of `registry` without the upload's trial run (RegistryHTTPTests test the trial): these tests are
    /// about publishing, versions and files, and the trials of their many publishes would load the other suites
    /// running in this process.
    static func service(_ registry: ModelRegistry) -> RegistryService {
        var service = registry.service
        service.uploadTrialTimeout = nil
        return service
    }

    /// Uploads the shared model `file` as `name`.
    @discardableResult
    static func publish(_ registry: RegistryService, _ file: String, as name: String) async throws -> PublishedVersion {
        let upload = try registry.incoming()
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: TestData.model(file))))
        try bytes.withUnsafeBytes { try upload.write($0) }
        return try await registry.publish(upload, as: name)
    }

    /// The version of `name` that `client` gets, as the routes choose it.
    static func version(
        _ registry: RegistryService, of name: String, for client: String?
    ) async throws
        -> PublishedVersion
    {
        let (model, versions) = try await registry.info(name)
        return try #require(RegistryService.served(model, versions: versions, to: client))
    }

    /// The file of `version` in the data folder `folder`.
    static func file(_ folder: URL, of version: PublishedVersion) -> String {
        folder.path + "/blobs/" + version.sha256
    }

    static func blobs(_ folder: URL) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("blobs").path)) ?? [])
            .sorted()
    }

    @Test("Published versions are numbered, summarized from the model's metadata, and the newest is latest")
    func publishAndInfo() async throws {
        try await Self.withRegistry { registry, folder in
            let first = try await Self.publish(registry, "bird.tflite", as: "birds")
            #expect(
                first.version == 1 && first.sha256 == "79510633209226cbb86b356be5a743e554c01789acd939d73d1fcf8d5b64416f"
            )
            #expect(first.summary?.kind == "classifier" && first.summary?.labelCount == 965)
            #expect(first.summary?.inputs.first?.shape == [1, 224, 224, 3])
            let second = try await Self.publish(registry, "object_labeler.tflite", as: "birds")
            #expect(second.version == 2)
            let detector = try await Self.publish(registry, "coco_ssd_mobilenet_v1.tflite", as: "coco")
            #expect(detector.summary?.kind == "detector")
            #expect(try await registry.list().map(\.name) == ["birds", "coco"])
            let (model, versions) = try await registry.info("birds")
            #expect(model.latestVersion == 2 && versions.map(\.version) == [2, 1])
            #expect(try await Self.version(registry, of: "birds", for: nil).version == 2)
            #expect(FileManager.default.fileExists(atPath: Self.file(folder, of: second)))
            #expect(Self.blobs(folder).count == 3)
        }
    }

    @Test("Promote rolls back; delete moves latest and removes the unreferenced file")
    func promoteAndDelete() async throws {
        try await Self.withRegistry { registry, folder in
            try await Self.publish(registry, "bird.tflite", as: "m")
            let second = try await Self.publish(registry, "object_labeler.tflite", as: "m")
            try await registry.promote("m", version: 1)
            #expect(try await Self.version(registry, of: "m", for: "any").version == 1)
            await #expect(throws: RegistryError.notFound("m version 9")) { try await registry.promote("m", version: 9) }
            try await registry.promote("m", version: 2)
            try await registry.delete("m", version: 2)
            #expect(try await registry.info("m").model.latestVersion == 1)
            #expect(!FileManager.default.fileExists(atPath: Self.file(folder, of: second)))
            #expect(Self.blobs(folder).count == 1)
            await #expect(throws: RegistryError.notFound("nothing")) { try await registry.info("nothing") }
        }
    }

    @Test("A rollout serves its version to its share of clients, the same version to each client every time")
    func rollout() async throws {
        try await Self.withRegistry { registry, _ in
            try await Self.publish(registry, "bird.tflite", as: "m")
            try await Self.publish(registry, "object_labeler.tflite", as: "m")
            try await registry.promote("m", version: 1)
            try await registry.rollout("m", version: 2, percent: 30)
            var onRollout = 0
            for client in 0..<1000 {
                let version = try await Self.version(registry, of: "m", for: "client-\(client)").version
                #expect(try await Self.version(registry, of: "m", for: "client-\(client)").version == version)
                if version == 2 { onRollout += 1 }
            }
            #expect((270...330).contains(onRollout), "\(onRollout) of 1000 clients on the rollout")
            await #expect(throws: RegistryError.self) { try await registry.rollout("m", version: 2, percent: 101) }
            try await registry.rollout("m", version: 2, percent: 0)
            #expect(try await Self.version(registry, of: "m", for: "client-1").version == 1)
        }
    }

    @Test("Names with '..', '/', NUL, or over 64 characters are refused; so is an upload that is not a model")
    func refusals() async throws {
        try await Self.withRegistry { registry, _ in
            for name in ["", "..", "a..b", "a/b", "a\u{0}b", String(repeating: "x", count: 65), "é"] {
                await #expect(throws: RegistryError.invalidName(name)) { try await registry.info(name) }
            }
            try RegistryService.validate(name: String(repeating: "x", count: 64))
            let upload = try registry.incoming()
            try Array("<html>not a model</html>".utf8).withUnsafeBytes { try upload.write($0) }
            do throws(RegistryError) {
                _ = try await registry.publish(upload, as: "page")
                Issue.record("an HTML page was published")
            } catch {
                guard case .notAModel = error else { throw error }
            }
            #expect(try await registry.list().isEmpty)
        }
        try await Self.withRegistry { registry, folder in
            let upload = try registry.incoming()
            try Array([UInt8](repeating: 7, count: 100)).withUnsafeBytes { try upload.write($0) }
            _ = try? await registry.publish(upload, as: "junk")
            _ = upload
            // Only the refused upload's own incoming file (still open here), never a committed blob.
            #expect(Self.blobs(folder).count == 1 && Self.blobs(folder).allSatisfy { $0.hasPrefix(".incoming-") })
        }
    }

    @Test("Reopening after a crash removes unfinished uploads and files no version refers to")
    func crashCleanup() async throws {
        let folder = TestData.temporaryDirectory("registry")
        defer { try? FileManager.default.removeItem(at: folder) }
        do {
            let registry = try ModelRegistry(dataFolder: folder.path)
            try await Self.publish(Self.service(registry), "bird.tflite", as: "m")
        }
        let blobs = folder.appendingPathComponent("blobs")
        try Data("half an upload".utf8).write(to: blobs.appendingPathComponent(".incoming-1-abc"))
        try Data("renamed but never recorded".utf8).write(
            to: blobs.appendingPathComponent(String(repeating: "0", count: 64)))
        let reopened = try ModelRegistry(dataFolder: folder.path)
        #expect(Self.blobs(folder) == ["79510633209226cbb86b356be5a743e554c01789acd939d73d1fcf8d5b64416f"])
        #expect(try await reopened.service.info("m").versions.count == 1)
    }

    @Test("Tokens: shown once, stored as hashes, checked with their role")
    func tokens() async throws {
        try await Self.withRegistry { registry, folder in
            let publish = try await registry.createToken(role: .publish)
            let read = try await registry.createToken(role: .read, model: "m")
            #expect(try await registry.authorize(publish)?.role == .publish)
            #expect(try await registry.authorize(read).map { $0.role == .read && $0.model == "m" } == true)
            #expect(try await registry.authorize("lvr_" + String(repeating: "0", count: 64)) == nil)
            #expect(try await registry.authorize(String(publish.dropLast()) + "x") == nil)
            #expect(try await registry.authorize("") == nil)
            for file in try FileManager.default.contentsOfDirectory(atPath: folder.path)
            where file.hasPrefix("registry.sqlite") {
                let bytes = try Data(contentsOf: folder.appendingPathComponent(file))
                #expect(bytes.range(of: Data(publish.utf8)) == nil && bytes.range(of: Data(read.utf8)) == nil)
            }
        }
    }

    @Test("Publishers racing on one name get distinct, consecutive versions")
    func racingPublishers() async throws {
        let folder = TestData.temporaryDirectory("registry")
        defer { try? FileManager.default.removeItem(at: folder) }
        let registry = Self.service(try ModelRegistry(dataFolder: folder.path))
        let versions = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<8 {
                group.addTask { try await Self.publish(registry, "automl_flowers.tflite", as: "race").version }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(versions.sorted() == Array(1...8))
        #expect(Self.blobs(folder).count == 1)  // the same content is stored once
    }

    /// The permission bits of `path`.
    static func mode(_ path: String) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: path)[.posixPermissions]) as? Int) ?? -1
    }

    @Test("The data folder is private: folders 0700, the database and model files 0600; an open one is tightened")
    func privateDataFolder() async throws {
        try await Self.withRegistry { registry, folder in
            let published = try await Self.publish(registry, "bird.tflite", as: "birds")
            #expect(Self.mode(folder.path) == 0o700 && Self.mode(folder.path + "/blobs") == 0o700)
            #expect(Self.mode(folder.path + "/registry.sqlite") == 0o600)
            #expect(Self.mode(folder.path + "/blobs/" + published.sha256) == 0o600)
        }
        // A folder the registry makes itself is private from the start: nothing to tighten.
        let made = TestData.temporaryDirectory("registry-new")
        defer { try? FileManager.default.removeItem(at: made) }
        #expect(try ModelRegistry(dataFolder: made.path + "/data").tightenedPermissions.isEmpty)
        // A folder an older registry left readable by everyone.
        let folder = TestData.temporaryDirectory("registry-open")
        defer { try? FileManager.default.removeItem(at: folder) }
        _ = try ModelRegistry(dataFolder: folder.path)
        chmod(folder.path, 0o755)
        chmod(folder.path + "/registry.sqlite", 0o644)
        let reopened = try ModelRegistry(dataFolder: folder.path)
        #expect(Self.mode(folder.path) == 0o700 && Self.mode(folder.path + "/registry.sqlite") == 0o600)
        #expect(reopened.tightenedPermissions.count == 2, "\(reopened.tightenedPermissions)")
        #expect(reopened.tightenedPermissions.first?.contains("was 755") == true)
    }

    @Test("A released registry frees its folder at once, even while a spawned process holds its lock descriptor")
    func lockReleasedDespiteInheritedDescriptor() throws {
        let folder = TestData.temporaryDirectory("registry-lock")
        defer { try? FileManager.default.removeItem(at: folder) }
        var copy: Int32 = -1
        defer { if copy >= 0 { close(copy) } }
        do {
            let lock = try DataFolderLock(folder.path)
            // What a process spawned by another thread holds until it execs: a copy of the descriptor.
            copy = fcntl(lock.descriptor, F_DUPFD_CLOEXEC, 0)
            #expect(copy >= 0, "cannot copy the lock's descriptor: errno \(errno)")
            #expect(throws: RegistryError.self) { try DataFolderLock(folder.path) }
            withExtendedLifetime(lock) {}
        }
        _ = try ModelRegistry(dataFolder: folder.path)
    }

    @Test("backup refuses a corrupted model file, naming it and its version, and leaves no copy")
    func backupChecksHashes() async throws {
        try await Self.withRegistry { registry, folder in
            let published = try await Self.publish(registry, "bird.tflite", as: "birds")
            let blob = folder.path + "/blobs/" + published.sha256
            let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: blob))
            try handle.seek(toOffset: 1000)
            try handle.write(contentsOf: Data([0x55]))
            try handle.close()
            let out = folder.deletingLastPathComponent().appendingPathComponent(folder.lastPathComponent + "-copy")
            defer { try? FileManager.default.removeItem(at: out) }
            await #expect {
                try await registry.backup(to: out.path)
            } throws: { error in
                let text = "\(error)"
                return text.contains("is corrupted") && text.contains(published.sha256)
                    && text.contains("birds version 1")
            }
            #expect(!FileManager.default.fileExists(atPath: out.path))
            let left = try FileManager.default.contentsOfDirectory(atPath: folder.deletingLastPathComponent().path)
            #expect(!left.contains { $0.hasPrefix(out.lastPathComponent + ".partial") })
            #expect(
                !(try FileManager.default.contentsOfDirectory(atPath: folder.path)).contains { $0.hasPrefix(".backup") }
            )
        }
    }

    @Test("backup completes while versions are published and deleted without pause, and the copy is consistent")
    func backupUnderChurn() async throws {
        try await Self.withRegistry { registry, folder in
            try await Self.publish(registry, "bird.tflite", as: "birds")
            let models = ["object_labeler.tflite", "mobilenet_v1_025_float.tflite", "coco_ssd_mobilenet_v1.tflite"]
            let stop = StopFlag()
            let churn = Task {
                var index = 0
                while !stop.isSet {
                    // Publish a model, delete it: its file comes and goes all the time.
                    guard let published = try? await Self.publish(registry, models[index % models.count], as: "churn")
                    else { continue }
                    try? await registry.delete("churn", version: published.version)
                    index += 1
                }
            }
            defer { stop.set() }
            let tool = try ModelRegistry(dataFolder: folder.path, access: .shared).service
            for attempt in 0..<10 {
                let out = folder.deletingLastPathComponent().appendingPathComponent(
                    folder.lastPathComponent + "-copy\(attempt)")
                defer { try? FileManager.default.removeItem(at: out) }
                let copied = try await tool.backup(to: out.path)
                // Every version in the copy has its file, checked.
                let copy = try ModelRegistry(dataFolder: out.path, access: .shared).service
                for model in try await copy.list() {
                    for version in try await copy.info(model.name).versions {
                        #expect(FileManager.default.fileExists(atPath: out.path + "/blobs/" + version.sha256))
                    }
                }
                #expect(copied.blobs >= 1)
            }
            stop.set()
            await churn.value
        }
    }
}

/// A flag a test sets to stop work it started.
final class StopFlag: Sendable {
    private let flag = Atomic<Bool>(false)
    var isSet: Bool { flag.load(ordering: .relaxed) }
    func set() { flag.store(true, ordering: .relaxed) }
}
