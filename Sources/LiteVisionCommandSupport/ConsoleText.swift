/// Text for standard output or standard error in which nothing that came from outside can act on the terminal.
///
/// Every interpolated value (a file name, a model's label, a registry's error sentence, an error's description)
/// has its control characters written out visibly as `\u{1B}`: C0 controls (tab and line feed included, so a
/// label cannot start a line of its own), DEL, C1 controls, and the invisible direction marks and overrides
/// (U+200E, U+200F, U+061C, U+202A–U+202E, U+2066–U+2069) and line separators (U+2028, U+2029) that would
/// make a name read as another. The literal parts, the program's own text, are written as they are. A
/// published model whose label is `ESC]0;…` therefore prints `\u{1B}]0;…` instead of retitling the window.
///
/// ```swift
/// Console.error("litevision: \(path): \(error)")        // path and error escaped, the rest as written
/// ```
package struct ConsoleText: ExpressibleByStringInterpolation, Sendable, Equatable {
    /// The text as it is written: the program's own parts verbatim, the rest escaped.
    package private(set) var rendered: String

    /// The program's own text, written as it is.
    package init(stringLiteral value: String) { rendered = value }

    /// Literal parts as they are, interpolated values escaped.
    package init(stringInterpolation: StringInterpolation) { rendered = stringInterpolation.rendered }

    /// Multi-line text made elsewhere that may hold outside values (ArgumentParser's help and usage messages,
    /// which repeat the arguments): every control character but the line feed is escaped.
    package init(lines text: String) { rendered = Self.escaping(text, keeping: ["\n"]) }

    /// A line of JSON (ours, or a registry's answer printed as it came): JSON's own escapes (`\u001b`) replace
    /// the control characters, so that valid JSON stays the same JSON and nothing reaches the terminal raw.
    /// Line feeds and tabs, JSON's white space between values, stay.
    package static func json(_ text: String) -> ConsoleText {
        var result = ConsoleText(stringLiteral: "")
        result.rendered = escaping(text, keeping: ["\n", "\t"]) { scalar in
            let hex = String(scalar.value, radix: 16, uppercase: false)
            return "\\u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
        }
        return result
    }

    /// Appends `other`, keeping what each part escaped.
    package mutating func append(_ other: ConsoleText) { rendered += other.rendered }

    /// Lines joined by line feeds.
    package static func lines(_ lines: [ConsoleText]) -> ConsoleText {
        var result = ConsoleText(stringLiteral: "")
        result.rendered = lines.map(\.rendered).joined(separator: "\n")
        return result
    }

    /// Builds a ``ConsoleText`` from a string literal with interpolations.
    package struct StringInterpolation: StringInterpolationProtocol {
        fileprivate var rendered = ""

        package init(literalCapacity: Int, interpolationCount: Int) {
            rendered.reserveCapacity(literalCapacity + 16 * interpolationCount)
        }

        /// The program's own text, as it is.
        package mutating func appendLiteral(_ literal: String) { rendered += literal }

        /// A value from outside, its description escaped.
        package mutating func appendInterpolation<Value>(_ value: Value) {
            rendered += ConsoleText.escaping(String(describing: value), keeping: [])
        }

        /// Text already made safe, as it is.
        package mutating func appendInterpolation(_ text: ConsoleText) { rendered += text.rendered }
    }

    /// Whether `scalar` can act on a terminal or change how the text around it reads.
    package static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F, 0x061C, 0x200E, 0x200F, 0x2028, 0x2029, 0x202A...0x202E, 0x2066...0x2069:
            true
        default: false
        }
    }

    /// `text` with every control character (``isControl(_:)``) but those in `keeping` written as `escape` makes it
    /// (by default Swift's `\u{1B}`).
    package static func escaping(
        _ text: String, keeping: Set<Unicode.Scalar>,
        as escape: (Unicode.Scalar) -> String = { "\\u{" + String($0.value, radix: 16, uppercase: true) + "}" }
    ) -> String {
        guard text.unicodeScalars.contains(where: { isControl($0) && !keeping.contains($0) }) else { return text }
        var result = ""
        result.reserveCapacity(text.utf8.count + 16)
        for scalar in text.unicodeScalars {
            if isControl(scalar) && !keeping.contains(scalar) {
                result += escape(scalar)
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}
