import Foundation
import Testing

/// `import LiteVision` keeps a small front door (issue 24: at most 30 public top-level types, against ML Kit's
/// ~15): the types declared at the top level of Sources/LiteVision plus those Exports.swift re-exports one by one.
/// LiteVision-only additions are nested or made by factories instead (`RemoteModelSource.url(_:sha256:)`).
@Suite("Public surface of import LiteVision")
struct PublicSurfaceTests {
    /// The most public top-level types `import LiteVision` may bring in.
    static let limit = 30

    /// Sources/LiteVision, found from this file (<package>/Tests/LiteVisionTests/PublicSurfaceTests.swift).
    static let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Sources/LiteVision", isDirectory: true)

    /// The Swift files of Sources/LiteVision, read.
    static func swiftFiles() throws -> [(name: String, text: String)] {
        let enumerator = try #require(FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil))
        var files: [(name: String, text: String)] = []
        for case let url as URL in enumerator where url.pathExtension == "swift" {
            files.append((url.lastPathComponent, try String(contentsOf: url, encoding: .utf8)))
        }
        return files
    }

    /// The names of the public (or open) types declared at the top level of `text`: a declaration that starts a
    /// line (nested types are indented), after any attributes.
    static func declaredTypes(in text: String) -> [String] {
        let declaration =
            #/^(?:@\w+(?:\([^)]*\))?\s+)*(?:public|open)\s+(?:(?:final|indirect)\s+)*(?:struct|class|enum|protocol|actor|typealias)\s+(\w+)/#
        return text.split(separator: "\n", omittingEmptySubsequences: false).compactMap { line in
            (try? declaration.prefixMatch(in: line)).map { String($0.output.1) }
        }
    }

    /// The types re-exported one by one (`@_exported import struct Module.Type`), and the lines that re-export a
    /// whole module (which would bring in every public type of that module).
    static func reexports(in text: String) -> (types: [String], wholeModules: [String]) {
        let single = #/^@_exported\s+import\s+(?:struct|class|enum|protocol|actor|typealias)\s+\w+\.(\w+)/#
        let whole = #/^@_exported\s+import\s+\w+\s*$/#
        var types: [String] = []
        var wholeModules: [String] = []
        for line in text.split(separator: "\n") {
            if let match = try? single.prefixMatch(in: line) {
                types.append(String(match.output.1))
            } else if (try? whole.wholeMatch(in: line)) != nil {
                wholeModules.append(String(line))
            }
        }
        return (types, wholeModules)
    }

    @Test("The counter sees declarations, attributes and re-exports, not nested types")
    func counterReadsDeclarations() {
        let text = """
            public struct A {
                public struct Nested {}
            }
            @frozen public enum B {}
            public final class C {}
            open class D {}
            struct Internal {}
            package final class Hidden {}
            extension A { public typealias Alias = Int }
            @_exported import struct Other.E
            @_exported import Whole
            """
        #expect(Self.declaredTypes(in: text) == ["A", "B", "C", "D"])
        #expect(Self.reexports(in: text).types == ["E"])
        #expect(Self.reexports(in: text).wholeModules == ["@_exported import Whole"])
    }

    @Test("import LiteVision brings in at most 30 public top-level types, and no whole module")
    func atMostThirtyTypes() throws {
        var types: [String] = []
        var wholeModules: [String] = []
        for file in try Self.swiftFiles() {
            types += Self.declaredTypes(in: file.text)
            let reexported = Self.reexports(in: file.text)
            types += reexported.types
            wholeModules += reexported.wholeModules
        }
        #expect(wholeModules.isEmpty, "whole modules re-exported: \(wholeModules)")
        #expect(Set(types).count == types.count, "declared twice: \(types)")
        // The ML Kit names stay at the top level (the seed snippets and ported code use them).
        for name in [
            "VisionImage", "ImageLabeler", "CustomImageLabelerOptions", "ImageLabel", "ObjectDetector",
            "ObjectDetectorOptions", "CustomObjectDetectorOptions", "DetectedObject", "ObjectLabel", "LocalModel",
            "CustomRemoteModel", "RemoteModelSource", "FirebaseModelSource",
        ] {
            #expect(types.contains(name), "\(name) is missing from import LiteVision")
        }
        #expect(types.count <= Self.limit, "\(types.count) public top-level types: \(types.sorted())")
    }
}
