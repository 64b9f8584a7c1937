import Foundation
import LiteVisionTestSupport
import Testing

/// XNNPACK's weight cache (LITEVISION_WEIGHT_CACHE), through the `litevision` command: a new process finds the
/// packed weights of an earlier one, the labels never change, and an edited model or an unsafe folder never gets
/// a stale entry.
@Suite("Weight cache")
struct WeightCacheTests {
    static func label(_ model: String, cache: String, image: String = "bird.jpg") throws -> String {
        let result = try LiteVisionExecutable.run(
            ["label", "--json", "--threshold", "0", "--max-results", "5", "--model", model, TestData.image(image)],
            environment: ["LITEVISION_WEIGHT_CACHE": cache])
        #expect(result.status == 0, "\(result.errors)")
        return result.output
    }

    static func entries(_ folder: URL) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).sorted()
    }

    @Test("The first process writes one entry, the next ones use it, and the labels are those of no cache")
    func reuse() throws {
        let folder = TestData.temporaryDirectory("weight-cache").appendingPathComponent("xnnpack")
        defer { try? FileManager.default.removeItem(at: folder.deletingLastPathComponent()) }
        let model = TestData.model("bird.tflite")
        let uncached = try Self.label(model, cache: "off")
        #expect(uncached.contains("Ardea cinerea"))
        #expect(try Self.label(model, cache: folder.path) == uncached)
        let written = Self.entries(folder)
        #expect(written.count == 1 && written[0].hasSuffix(".xnnpack"), "\(written)")
        let attributes = try FileManager.default.attributesOfItem(atPath: folder.path)
        #expect((attributes[.posixPermissions] as? Int) == 0o700)
        let entry = folder.appendingPathComponent(written[0]).path
        let before = try FileManager.default.attributesOfItem(atPath: entry)
        #expect((before[.posixPermissions] as? Int) == 0o600)
        #expect(try Self.label(model, cache: folder.path) == uncached)
        #expect(Self.entries(folder) == written)
        // Used, not rewritten: the same file (inode) and size.
        let after = try FileManager.default.attributesOfItem(atPath: entry)
        #expect(after[.systemFileNumber] as? Int == before[.systemFileNumber] as? Int)
        #expect(after[.size] as? Int == before[.size] as? Int)
    }

    @Test("A model file rewritten in place gets an entry of its own and its own labels")
    func editedModel() throws {
        let root = TestData.temporaryDirectory("weight-cache-edit")
        defer { try? FileManager.default.removeItem(at: root) }
        let folder = root.appendingPathComponent("xnnpack").path
        let model = root.appendingPathComponent("model.tflite")
        try Data(contentsOf: URL(fileURLWithPath: TestData.model("bird.tflite"))).write(to: model)
        Thread.sleep(forTimeInterval: 2.1)  // a model file is cached once it has not changed for two seconds
        let birdLabels = try Self.label(model.path, cache: folder)
        #expect(Self.entries(URL(fileURLWithPath: folder)).filter { $0.hasSuffix(".xnnpack") }.count == 1)
        // Same path, other bytes: mobilenet_v1_025_float has its own labels and weights.
        let other = try Data(contentsOf: URL(fileURLWithPath: TestData.model("mobilenet_v1_025_float.tflite")))
        let handle = try FileHandle(forWritingTo: model)
        try handle.truncate(atOffset: 0)
        try handle.write(contentsOf: other)
        try handle.close()
        let expected = try Self.label(model.path, cache: "off")
        #expect(expected != birdLabels)
        // Changed less than two seconds ago: not cached (file times may be too coarse to tell a quick rewrite).
        #expect(try Self.label(model.path, cache: folder) == expected)
        #expect(Self.entries(URL(fileURLWithPath: folder)).filter { $0.hasSuffix(".xnnpack") }.count == 1)
        Thread.sleep(forTimeInterval: 2.1)
        #expect(try Self.label(model.path, cache: folder) == expected)
        #expect(try Self.label(model.path, cache: folder) == expected)
        #expect(Self.entries(URL(fileURLWithPath: folder)).filter { $0.hasSuffix(".xnnpack") }.count == 2)
    }

    @Test("A folder others can write or read is not used; labeling goes on without it", arguments: [0o777, 0o755])
    func unsafeFolder(mode: Int) throws {
        let folder = TestData.temporaryDirectory("weight-cache-open")
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: folder.path)
        let model = TestData.model("bird.tflite")
        #expect(try Self.label(model, cache: folder.path) == (try Self.label(model, cache: "off")))
        #expect(Self.entries(folder).isEmpty)
    }

    @Test(
        "A damaged entry is never given to XNNPACK: it is replaced by a new one, and the labels stay those of no cache")
    func damagedEntry() throws {
        let folder = TestData.temporaryDirectory("weight-cache-damaged").appendingPathComponent("xnnpack")
        defer { try? FileManager.default.removeItem(at: folder.deletingLastPathComponent()) }
        let model = TestData.model("bird.tflite")
        let expected = try Self.label(model, cache: "off")
        _ = try Self.label(model, cache: folder.path)
        let entry = folder.appendingPathComponent(try #require(Self.entries(folder).first))
        let good = try Data(contentsOf: entry)
        // Truncated, and a header claiming a finished build followed by garbage.
        var garbage = Data([4, 0, 0, 0, 0, 0, 0, 0])
        garbage.append(Data((0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }))
        for damaged in [good.prefix(good.count / 2), garbage] {
            try damaged.write(to: entry)
            #expect(try Self.label(model, cache: folder.path) == expected)
            #expect(try Data(contentsOf: entry) == good, "the damaged entry was not replaced by a complete one")
            #expect(Self.entries(folder) == [entry.lastPathComponent])
            #expect(try Self.label(model, cache: folder.path) == expected)
        }
    }
}
