import FoundationEssentials
import LiteVision

/// How `litevision label` prints results.
package enum LabelOutput {
    /// A readable block: the file, then one line per label (the file name and label texts escaped).
    package static func table(file: String, labels: [ImageLabel]) -> ConsoleText {
        var lines: [ConsoleText] = ["\(file)"]
        if labels.isEmpty { lines.append("  (no label above the threshold)") }
        for label in labels {
            let confidence = fixed(label.confidence, digits: 4)
            let index = String(label.index).leftPadded(to: 5)
            lines.append("  \(confidence)  \(index)  \(label.text)")
        }
        return .lines(lines)
    }

    private struct Line: Encodable {
        var file: String
        var labels: [ImageLabel]?
        var error: String?
    }

    /// One JSON object: `{"file": ..., "labels": [{"text", "confidence", "index"}]}`. A confidence JSON cannot hold
    /// (infinite or NaN) throws ``NotFiniteResult``.
    package static func jsonLine(file: String, labels: [ImageLabel]) throws(NotFiniteResult) -> ConsoleText {
        guard let text = JSONRecord.encoded(Line(file: file, labels: labels)) else {
            throw NotFiniteResult.labels
        }
        return .json(text)
    }

    /// One JSON object for a file that failed: `{"file": ..., "error": ...}`.
    package static func jsonError(file: String, error: any Error) -> ConsoleText {
        .json(JSONRecord.encoded(Line(file: file, error: "\(error)")) ?? "{}")  // texts only: always encoded
    }
}

/// `value` with exactly `digits` decimals (String(format:) needs all of Foundation).
package func fixed(_ value: Float, digits: Int) -> String {
    // Too large for the decimals: as Swift writes the Float (`1e+20`), not its Double (`1.0000000200408773e+20`).
    guard value.isFinite, abs(Double(value)) < fixedLimit(digits: digits) else { return "\(value)" }
    return fixed(Double(value), digits: digits)
}

/// The magnitude from which `fixed(_:digits:)` writes a value as Swift does: 2^62 over `10^digits`.
private func fixedLimit(digits: Int) -> Double {
    var scale = 1.0
    for _ in 0..<max(digits, 0) { scale *= 10 }
    return 0x1p62 / scale
}

/// `value` with exactly `digits` decimals; a value too large for them (`value` times `10^digits` at or past 2^62,
/// such as a hostile score of 1e20 in a detection file) as Swift writes it (`1e+20`), which readers of the formats
/// parse too.
package func fixed(_ value: Double, digits: Int) -> String {
    guard value.isFinite else { return "\(value)" }
    var scale = 1
    for _ in 0..<digits { scale *= 10 }
    let product = (value * Double(scale)).rounded()
    guard abs(product) < 0x1p62 else { return "\(value)" }
    let scaled = Int(product)
    let sign = scaled < 0 ? "-" : ""
    let magnitude = abs(scaled)
    if digits <= 0 { return "\(sign)\(magnitude)" }
    let fraction = String(magnitude % scale)
    return "\(sign)\(magnitude / scale)." + String(repeating: "0", count: digits - fraction.count) + fraction
}

package extension String {
    func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: " ", count: width - count) + self
    }
}
