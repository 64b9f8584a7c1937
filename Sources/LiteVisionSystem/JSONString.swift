/// JSON string literals, for the places that write JSON by hand (the live view's page and records, evaluation
/// results).
package enum JSONString {
    /// `text` as a JSON string literal, quotes included. Control characters (C0 and C1) and U+2028/U+2029 are
    /// written as `\uXXXX`, so the literal is also safe inside a `<script>` element or a line-oriented log.
    package static func quoted(_ text: String) -> String {
        var output = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": output += "\\\""
            case "\\": output += "\\\\"
            case "\n": output += "\\n"
            case "\r": output += "\\r"
            case "\t": output += "\\t"
            case _
            where scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || scalar.value == 0x2028
                || scalar.value == 0x2029:
                let hex = String(scalar.value, radix: 16)
                output += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: output.unicodeScalars.append(scalar)
            }
        }
        return output + "\""
    }
}
