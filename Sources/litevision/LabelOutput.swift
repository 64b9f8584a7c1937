import Foundation
import LiteVision

/// How `litevision label` prints results.
enum LabelOutput {
    /// A readable block: the file, then one line per label.
    static func table(file: String, labels: [ImageLabel]) -> String {
        var lines = [file]
        if labels.isEmpty { lines.append("  (no label above the threshold)") }
        for label in labels {
            let confidence = String(format: "%.4f", label.confidence)
            let index = String(label.index).leftPadded(to: 5)
            lines.append("  \(confidence)  \(index)  \(label.text)")
        }
        return lines.joined(separator: "\n")
    }

    private struct Line: Encodable {
        var file: String
        var labels: [ImageLabel]?
        var error: String?
    }

    /// One JSON object: `{"file": ..., "labels": [{"text", "confidence", "index"}]}`.
    static func jsonLine(file: String, labels: [ImageLabel]) -> String {
        encode(Line(file: file, labels: labels))
    }

    /// One JSON object for a file that failed: `{"file": ..., "error": ...}`.
    static func jsonError(file: String, error: VisionError) -> String {
        encode(Line(file: file, error: error.description))
    }

    private static func encode(_ line: Line) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? String(decoding: encoder.encode(line), as: UTF8.self)) ?? "{}"
    }
}

extension String {
    func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: " ", count: width - count) + self
    }
}
