import Foundation
import LiteVisionTestSupport
import Testing

/// Checks that every Swift snippet of the seed guides is in this target, verbatim apart from the allowed
/// changes, so that compiling this target compiles all of them (and its tests run them).
@Suite("Seed snippets: coverage")
struct SeedCoverageTests {
    /// The Swift snippets of one seed guide: the text between a "Swift" heading (in the guide's language) and
    /// the next "Objective-C" heading.
    static func snippets(of text: String) -> [String] {
        let starts: Set<String> = ["Swift", "سویفت"]
        let ends: Set<String> = ["Objective-C", "هدف-C"]
        var snippets: [String] = []
        var current: [String]?
        for line in text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            let heading = line.trimmingCharacters(in: .whitespaces)
            if starts.contains(heading) || ends.contains(heading) {
                if let current, current.contains(where: { !$0.allSatisfy(\.isWhitespace) }) {
                    snippets.append(current.joined(separator: "\n"))
                }
                current = starts.contains(heading) ? [] : nil
            } else {
                current?.append(line)
            }
        }
        return snippets
    }

    /// The allowed changes of a seed snippet: a platform input (`UIImage`) replaced by a Linux one.
    static func allowedChanges(_ snippet: String) -> String {
        snippet.replacingOccurrences(of: "VisionImage(image: UIImage)", with: "VisionImage(image: uiImage)")
    }

    /// `text` without its whitespace: how snippets are compared (one guide lost its line breaks).
    static func squeezed(_ text: String) -> String {
        String(text.unicodeScalars.filter { !CharacterSet.whitespacesAndNewlines.contains($0) }.map(Character.init))
    }

    @Test("Every Swift snippet of the five seed guides is compiled here, verbatim")
    func coverage() throws {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        let sources = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter {
            $0.hasSuffix("Snippets.swift")
        }
        #expect(sources.count == 5)
        // The snippet files without the test's own lines (those ending in `// seed-test`).
        let compiled = try sources.map { name in
            let text = try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
            return Self.squeezed(
                text.split(separator: "\n").filter { !$0.hasSuffix("// seed-test") }.joined(separator: "\n"))
        }
        let seedFolder = URL(fileURLWithPath: TestData.path("seeds"))
        let seeds = try FileManager.default.contentsOfDirectory(atPath: seedFolder.path).filter {
            $0.hasSuffix(".txt")
        }.sorted()
        #expect(seeds.count == 5)
        var total = 0
        var found = 0
        var distinct: Set<String> = []
        for seed in seeds {
            let text = try String(contentsOf: seedFolder.appendingPathComponent(seed), encoding: .utf8)
            let snippets = Self.snippets(of: text)
            #expect(!snippets.isEmpty, "\(seed) has Swift snippets")
            for (number, snippet) in snippets.enumerated() {
                total += 1
                let wanted = Self.squeezed(Self.allowedChanges(snippet))
                if compiled.contains(where: { $0.contains(wanted) }) {
                    found += 1
                    distinct.insert(wanted)
                } else {
                    Issue.record("\(seed) Swift snippet \(number + 1) is not compiled verbatim:\n\(snippet)")
                }
            }
        }
        print(
            "Seed snippets: \(found) of the \(total) Swift snippets of the \(seeds.count) seed guides compiled and run"
                + " verbatim (\(distinct.count) distinct; the guides repeat each other)")
        #expect(found == total && total >= 50)
    }
}
