import Foundation
import LiteVisionRegistry
import LiteVisionTestSupport
import Synchronization
import Testing

/// The registry's logic on a real data folder (SQLite through GRDB, blobs on disk), without HTTP.
@Suite("Model registry: publish, versions, rollout, tokens, crash cleanup")
struct ModelRegistryTests {
    static func withRegistry(_ body: (ModelRegistry, URL) throws -> Void) throws {
        let folder = TestData.temporaryDirectory("registry")
        defer { try? FileManager.default.removeItem(at: folder) }
        try body(try ModelRegistry(dataFolder: folder.path), folder)
    }

    /// Uploads the shared model `file` as `name`.
    @discardableResult
    static func publish(_ registry: ModelRegistry, _ file: String, as name: String) throws -> PublishedVersion {
        let upload = try registry.incoming()
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: TestData.model(file))))
        try bytes.withUnsafeBytes { try upload.write($0) }
        return try registry.publish(upload, as: name)
    }

    static func blobs(_ folder: URL) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("blobs").path)) ?? [])
            .sorted()
    }

    @Test("Published versions are numbered, summarized from the model's metadata, and the newest is latest")
    func publishAndInfo() throws {
        try Self.withRegistry { registry, folder in
            let first = try Self.publish(registry, "bird.tflite", as: "birds")
            #expect(
                first.version == 1 && first.sha256 == "79510633209226cbb86b356be5a743e554c01789acd939d73d1fcf8d5b64416f"
            )
            #expect(first.summary?.kind == "classifier" && first.summary?.labelCount == 965)
            #expect(first.summary?.inputs.first?.shape == [1, 224, 224, 3])
            let second = try Self.publish(registry, "object_labeler.tflite", as: "birds")
            #expect(second.version == 2)
            let detector = try Self.publish(registry, "coco_ssd_mobilenet_v1.tflite", as: "coco")
            #expect(detector.summary?.kind == "detector")
            #expect(try registry.list().map(\.name) == ["birds", "coco"])
            let (model, versions) = try registry.info("birds")
            #expect(model.latestVersion == 2 && versions.map(\.version) == [2, 1])
            #expect(try registry.version(of: "birds", for: nil).version == 2)
            #expect(FileManager.default.fileExists(atPath: registry.file(of: second)))
            #expect(Self.blobs(folder).count == 3)
        }
    }

    @Test("Promote rolls back; delete moves latest and removes the unreferenced file")
    func promoteAndDelete() throws {
        try Self.withRegistry { registry, folder in
            try Self.publish(registry, "bird.tflite", as: "m")
            let second = try Self.publish(registry, "object_labeler.tflite", as: "m")
            try registry.promote("m", version: 1)
            #expect(try registry.version(of: "m", for: "any").version == 1)
            #expect(throws: RegistryError.notFound("m version 9")) { try registry.promote("m", version: 9) }
            try registry.promote("m", version: 2)
            try registry.delete("m", version: 2)
            #expect(try registry.info("m").model.latestVersion == 1)
            #expect(!FileManager.default.fileExists(atPath: registry.file(of: second)))
            #expect(Self.blobs(folder).count == 1)
            #expect(throws: RegistryError.notFound("nothing")) { try registry.info("nothing") }
        }
    }

    @Test("A rollout serves its version to its share of clients, the same version to each client every time")
    func rollout() throws {
        try Self.withRegistry { registry, _ in
            try Self.publish(registry, "bird.tflite", as: "m")
            try Self.publish(registry, "object_labeler.tflite", as: "m")
            try registry.promote("m", version: 1)
            try registry.rollout("m", version: 2, percent: 30)
            var onRollout = 0
            for client in 0..<1000 {
                let version = try registry.version(of: "m", for: "client-\(client)").version
                #expect(try registry.version(of: "m", for: "client-\(client)").version == version)
                if version == 2 { onRollout += 1 }
            }
            #expect((270...330).contains(onRollout), "\(onRollout) of 1000 clients on the rollout")
            #expect(throws: RegistryError.self) { try registry.rollout("m", version: 2, percent: 101) }
            try registry.rollout("m", version: 2, percent: 0)
            #expect(try registry.version(of: "m", for: "client-1").version == 1)
        }
    }

    @Test("Names with '..', '/', NUL, or over 64 characters are refused; so is an upload that is not a model")
    func refusals() throws {
        try Self.withRegistry { registry, _ in
            for name in ["", "..", "a..b", "a/b", "a\u{0}b", String(repeating: "x", count: 65), "é"] {
                #expect(throws: RegistryError.invalidName(name)) { try registry.info(name) }
            }
            try ModelRegistry.validate(name: String(repeating: "x", count: 64))
            let upload = try registry.incoming()
            try Array("<html>not a model</html>".utf8).withUnsafeBytes { try upload.write($0) }
            do throws(RegistryError) {
                _ = try registry.publish(upload, as: "page")
                Issue.record("an HTML page was published")
            } catch {
                guard case .notAModel = error else { throw error }
            }
            #expect(try registry.list().isEmpty)
        }
        try Self.withRegistry { registry, folder in
            let upload = try registry.incoming()
            try Array([UInt8](repeating: 7, count: 100)).withUnsafeBytes { try upload.write($0) }
            _ = try? registry.publish(upload, as: "junk")
            _ = upload
            // Only the refused upload's own incoming file (still open here), never a committed blob.
            #expect(Self.blobs(folder).count == 1 && Self.blobs(folder).allSatisfy { $0.hasPrefix(".incoming-") })
        }
    }

    @Test("Reopening after a crash removes unfinished uploads and files no version refers to")
    func crashCleanup() throws {
        let folder = TestData.temporaryDirectory("registry")
        defer { try? FileManager.default.removeItem(at: folder) }
        do {
            let registry = try ModelRegistry(dataFolder: folder.path)
            try Self.publish(registry, "bird.tflite", as: "m")
        }
        let blobs = folder.appendingPathComponent("blobs")
        try Data("half an upload".utf8).write(to: blobs.appendingPathComponent(".incoming-1-abc"))
        try Data("renamed but never recorded".utf8).write(
            to: blobs.appendingPathComponent(String(repeating: "0", count: 64)))
        let reopened = try ModelRegistry(dataFolder: folder.path)
        #expect(Self.blobs(folder) == ["79510633209226cbb86b356be5a743e554c01789acd939d73d1fcf8d5b64416f"])
        #expect(try reopened.info("m").versions.count == 1)
    }

    @Test("Tokens: shown once, stored as hashes, checked with their role")
    func tokens() throws {
        try Self.withRegistry { registry, folder in
            let publish = try registry.createToken(role: .publish)
            let read = try registry.createToken(role: .read, model: "m")
            #expect(registry.authorize(publish)?.role == .publish)
            #expect(registry.authorize(read).map { $0.role == .read && $0.model == "m" } == true)
            #expect(registry.authorize("lvr_" + String(repeating: "0", count: 64)) == nil)
            #expect(registry.authorize(String(publish.dropLast()) + "x") == nil)
            #expect(registry.authorize("") == nil)
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
        let registry = try ModelRegistry(dataFolder: folder.path)
        let versions = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<8 { group.addTask { try Self.publish(registry, "automl_flowers.tflite", as: "race").version } }
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
    func privateDataFolder() throws {
        try Self.withRegistry { registry, folder in
            let published = try Self.publish(registry, "bird.tflite", as: "birds")
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

    @Test("backup refuses a corrupted model file, naming it and its version, and leaves no copy")
    func backupChecksHashes() throws {
        try Self.withRegistry { registry, folder in
            let published = try Self.publish(registry, "bird.tflite", as: "birds")
            let blob = folder.path + "/blobs/" + published.sha256
            let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: blob))
            try handle.seek(toOffset: 1000)
            try handle.write(contentsOf: Data([0x55]))
            try handle.close()
            let out = folder.deletingLastPathComponent().appendingPathComponent(folder.lastPathComponent + "-copy")
            defer { try? FileManager.default.removeItem(at: out) }
            #expect {
                try registry.backup(to: out.path)
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
    func backupUnderChurn() throws {
        try Self.withRegistry { registry, folder in
            try Self.publish(registry, "bird.tflite", as: "birds")
            let models = ["object_labeler.tflite", "mobilenet_v1_025_float.tflite", "coco_ssd_mobilenet_v1.tflite"]
            let stop = StopFlag()
            let churn = Thread {
                var index = 0
                while !stop.isSet {
                    // Publish a model, delete it: its file comes and goes all the time.
                    guard let published = try? Self.publish(registry, models[index % models.count], as: "churn")
                    else { continue }
                    try? registry.delete("churn", version: published.version)
                    index += 1
                }
            }
            churn.start()
            defer { stop.set() }
            let tool = try ModelRegistry(dataFolder: folder.path, access: .shared)
            for attempt in 0..<10 {
                let out = folder.deletingLastPathComponent().appendingPathComponent(
                    folder.lastPathComponent + "-copy\(attempt)")
                defer { try? FileManager.default.removeItem(at: out) }
                let copied = try tool.backup(to: out.path)
                // Every version in the copy has its file, checked.
                let copy = try ModelRegistry(dataFolder: out.path, access: .shared)
                for model in try copy.list() {
                    for version in try copy.info(model.name).versions {
                        #expect(FileManager.default.fileExists(atPath: out.path + "/blobs/" + version.sha256))
                    }
                }
                #expect(copied.blobs >= 1)
            }
            stop.set()
            while !churn.isFinished { Thread.sleep(forTimeInterval: 0.01) }
        }
    }
}

/// A flag a test sets to stop a thread it started.
final class StopFlag: Sendable {
    private let flag = Atomic<Bool>(false)
    var isSet: Bool { flag.load(ordering: .relaxed) }
    func set() { flag.store(true, ordering: .relaxed) }
}
