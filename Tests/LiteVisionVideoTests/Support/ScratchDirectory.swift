import Foundation
import LiteVisionTestSupport

/// A fresh temporary directory for the fixtures one test generates, deleted when the test is done (suites keep
/// one as a stored property, and Swift Testing makes a new suite instance for every test).
final class ScratchDirectory: Sendable {
    /// The directory.
    let url: URL

    init() { url = TestData.temporaryDirectory("litevision-video") }

    deinit { try? FileManager.default.removeItem(at: url) }

    /// The path of `name` inside the directory (the file is not created).
    func path(_ name: String) -> String { url.appendingPathComponent(name).path }

    /// Writes `data` to `name` and returns its path.
    func write(_ data: Data, named name: String) throws -> String {
        let path = path(name)
        try data.write(to: URL(fileURLWithPath: path))
        return path
    }

    /// A copy of the first `fraction` of a shared video.
    func truncatedCopy(of name: String, fraction: Double) throws -> String {
        let data = try VideoFixtures.bytes(name)
        return try write(data.prefix(Int(Double(data.count) * fraction)), named: "truncated-\(name)")
    }

    /// The names of the files in the directory (hidden ones included).
    var contents: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []).sorted()
    }
}
