import Foundation

/// Where the shared test data (models, photos, videos, reference outputs) lives.
///
/// Tests and benchmarks read it in place through one setting, `LITEVISION_TEST_DATA`, which defaults to
/// `../shared` relative to the package root. A missing folder is a setup error, never a silent skip.
public enum TestData {
    /// The root of the shared test data.
    public static let root: URL = {
        if let value = ProcessInfo.processInfo.environment["LITEVISION_TEST_DATA"], !value.isEmpty {
            return URL(fileURLWithPath: value, isDirectory: true).standardizedFileURL
        }
        // #filePath is <package>/Tests/LiteVisionTestSupport/TestData.swift
        let package = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        return package.appendingPathComponent("../shared", isDirectory: true).standardizedFileURL
    }()

    /// The path of a file below the test data root, failing loudly when it is not there.
    public static func path(_ relative: String) -> String {
        let url = root.appendingPathComponent(relative)
        guard FileManager.default.fileExists(atPath: url.path) else {
            fatalError(
                """
                Test data file \(url.path) is missing. Point LITEVISION_TEST_DATA at the shared test data \
                folder (models/, images/, reference/); it defaults to ../shared next to the package.
                """)
        }
        return url.path
    }

    /// A model from `models/`.
    public static func model(_ name: String) -> String { path("models/\(name)") }

    /// The SHA-256 of the shared `models/bird.tflite`, which the download tests serve and pin.
    public static let birdModelSHA256 = "79510633209226cbb86b356be5a743e554c01789acd939d73d1fcf8d5b64416f"

    /// A photo from `images/`.
    public static func image(_ name: String) -> String { path("images/\(name)") }
    /// The names of all photos in `images/`, sorted.
    public static var imageNames: [String] {
        let dir = path("images")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []
        return names.filter {
            $0.lowercased().hasSuffix(".jpg") || $0.lowercased().hasSuffix(".jpeg")
                || $0.lowercased().hasSuffix(".png")
        }.sorted()
    }

    /// A fresh temporary directory for fixtures a test generates.
    public static func temporaryDirectory(_ label: String = "litevision") -> URL {
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("\(label)-\(UUID().uuidString)", isDirectory: true)
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}
