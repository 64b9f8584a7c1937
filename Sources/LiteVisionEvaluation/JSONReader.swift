/// A strict JSON parser (RFC 8259) for the evaluation files: nesting, string and element counts are bounded, and
/// every error names the line it is on. `NaN` and `Infinity`, which Python's `json` accepts, are refused.
package struct JSONReader {
    /// How deeply arrays and objects may nest.
    package static let maximumDepth = 64
    /// How many values one file may hold in all (every number, string, array and object counts).
    package static let maximumValueCount = 200_000_000

    private let bytes: [UInt8]
    private let file: String
    private var position = 0
    private var valueCount = 0

    private init(bytes: [UInt8], file: String) {
        self.bytes = bytes
        self.file = file
    }

    /// Parses `bytes`, the whole content of `file` (named in errors), as one JSON value.
    package static func parse(_ bytes: [UInt8], file: String) throws(EvaluationError) -> JSONValue {
        var reader = JSONReader(bytes: bytes, file: file)
        reader.skipSpace()
        if reader.position == bytes.count { throw reader.failure("the file is empty: it holds no JSON") }
        let value = try reader.value(depth: 0)
        reader.skipSpace()
        if reader.position < bytes.count { throw reader.failure("unexpected text after the JSON value") }
        return value
    }

    private func failure(_ reason: String) -> EvaluationError {
        var line = 1
        for byte in bytes[..<min(position, bytes.count)] where byte == UInt8(ascii: "\n") { line += 1 }
        return EvaluationError(file: file, line: line, reason: "not valid JSON: " + reason)
    }

    private mutating func skipSpace() {
        while position < bytes.count {
            switch bytes[position] {
            case 0x20, 0x09, 0x0A, 0x0D: position += 1
            default: return
            }
        }
    }

    private mutating func value(depth: Int) throws(EvaluationError) -> JSONValue {
        guard depth < Self.maximumDepth else {
            throw failure("arrays and objects nest deeper than \(Self.maximumDepth)")
        }
        valueCount += 1
        guard valueCount <= Self.maximumValueCount else {
            throw failure("more than \(Self.maximumValueCount) values")
        }
        guard position < bytes.count else { throw failure("the file ends inside a value") }
        switch bytes[position] {
        case UInt8(ascii: "{"): return try object(depth: depth)
        case UInt8(ascii: "["): return try array(depth: depth)
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): try literal("true"); return .bool(true)
        case UInt8(ascii: "f"): try literal("false"); return .bool(false)
        case UInt8(ascii: "n"): try literal("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try number())
        case UInt8(ascii: "N"), UInt8(ascii: "I"):
            throw failure("NaN and Infinity are not numbers in JSON")
        default:
            throw failure("unexpected character '\(Self.printable(bytes[position]))'")
        }
    }

    private static func printable(_ byte: UInt8) -> String {
        (0x21...0x7E).contains(byte) ? String(UnicodeScalar(byte)) : "\\x" + String(byte, radix: 16)
    }

    private mutating func literal(_ word: StaticString) throws(EvaluationError) {
        let count = word.utf8CodeUnitCount
        let expected = UnsafeBufferPointer(start: word.utf8Start, count: count)
        guard position + count <= bytes.count, bytes[position..<position + count].elementsEqual(expected) else {
            throw failure("unexpected character '\(Self.printable(bytes[position]))'")
        }
        position += count
    }

    private mutating func object(depth: Int) throws(EvaluationError) -> JSONValue {
        position += 1
        var members: [(key: String, value: JSONValue)] = []
        skipSpace()
        if position < bytes.count, bytes[position] == UInt8(ascii: "}") {
            position += 1
            return .object(members)
        }
        while true {
            skipSpace()
            guard position < bytes.count, bytes[position] == UInt8(ascii: "\"") else {
                throw failure(
                    position < bytes.count ? "an object's key must be a string" : "the file ends inside an object")
            }
            let key = try string()
            skipSpace()
            guard position < bytes.count, bytes[position] == UInt8(ascii: ":") else {
                throw failure("a ':' must follow the key \"\(key)\"")
            }
            position += 1
            skipSpace()
            members.append((key, try value(depth: depth + 1)))
            skipSpace()
            guard position < bytes.count else { throw failure("the file ends inside an object") }
            if bytes[position] == UInt8(ascii: ",") {
                position += 1
            } else if bytes[position] == UInt8(ascii: "}") {
                position += 1
                return .object(members)
            } else {
                throw failure("expected ',' or '}' in an object")
            }
        }
    }

    private mutating func array(depth: Int) throws(EvaluationError) -> JSONValue {
        position += 1
        var elements: [JSONValue] = []
        skipSpace()
        if position < bytes.count, bytes[position] == UInt8(ascii: "]") {
            position += 1
            return .array(elements)
        }
        while true {
            skipSpace()
            elements.append(try value(depth: depth + 1))
            skipSpace()
            guard position < bytes.count else { throw failure("the file ends inside an array") }
            if bytes[position] == UInt8(ascii: ",") {
                position += 1
            } else if bytes[position] == UInt8(ascii: "]") {
                position += 1
                return .array(elements)
            } else {
                throw failure("expected ',' or ']' in an array")
            }
        }
    }

    private mutating func number() throws(EvaluationError) -> Double {
        let start = position
        func digits(_ reader: inout JSONReader) -> Int {
            let first = reader.position
            while reader.position < reader.bytes.count,
                (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(reader.bytes[reader.position])
            {
                reader.position += 1
            }
            return reader.position - first
        }
        if bytes[position] == UInt8(ascii: "-") { position += 1 }
        if position < bytes.count, bytes[position] == UInt8(ascii: "I") {
            throw failure("NaN and Infinity are not numbers in JSON")
        }
        let integerStart = position
        let integerDigits = digits(&self)
        guard integerDigits > 0 else { throw failure("a number needs digits") }
        if integerDigits > 1, bytes[integerStart] == UInt8(ascii: "0") {
            throw failure("a number may not start with 0")
        }
        if position < bytes.count, bytes[position] == UInt8(ascii: ".") {
            position += 1
            guard digits(&self) > 0 else { throw failure("a number needs digits after '.'") }
        }
        if position < bytes.count, bytes[position] == UInt8(ascii: "e") || bytes[position] == UInt8(ascii: "E") {
            position += 1
            if position < bytes.count, bytes[position] == UInt8(ascii: "+") || bytes[position] == UInt8(ascii: "-") {
                position += 1
            }
            guard digits(&self) > 0 else { throw failure("a number needs digits in its exponent") }
        }
        guard position - start <= 400 else { throw failure("a number of more than 400 characters") }
        let text = String(decoding: bytes[start..<position], as: UTF8.self)
        guard let value = Double(text), value.isFinite else { throw failure("the number \(text) is out of range") }
        return value
    }

    private mutating func string() throws(EvaluationError) -> String {
        position += 1
        var runStart = position
        var text = ""
        func flush(_ reader: JSONReader, upTo end: Int, into text: inout String) {
            if end > runStart { text += String(decoding: reader.bytes[runStart..<end], as: UTF8.self) }
        }
        while true {
            guard position < bytes.count else { throw failure("the file ends inside a string") }
            let byte = bytes[position]
            if byte == UInt8(ascii: "\"") {
                flush(self, upTo: position, into: &text)
                position += 1
                return text
            }
            if byte < 0x20 { throw failure("a control character inside a string") }
            if byte != UInt8(ascii: "\\") {
                position += 1
                continue
            }
            flush(self, upTo: position, into: &text)
            position += 1
            guard position < bytes.count else { throw failure("the file ends inside a string") }
            let escape = bytes[position]
            position += 1
            switch escape {
            case UInt8(ascii: "\""): text += "\""
            case UInt8(ascii: "\\"): text += "\\"
            case UInt8(ascii: "/"): text += "/"
            case UInt8(ascii: "b"): text += "\u{8}"
            case UInt8(ascii: "f"): text += "\u{C}"
            case UInt8(ascii: "n"): text += "\n"
            case UInt8(ascii: "r"): text += "\r"
            case UInt8(ascii: "t"): text += "\t"
            case UInt8(ascii: "u"):
                var code = try hexQuad()
                if (0xD800...0xDBFF).contains(code), position + 1 < bytes.count,
                    bytes[position] == UInt8(ascii: "\\"), bytes[position + 1] == UInt8(ascii: "u")
                {
                    let saved = position
                    position += 2
                    let low = try hexQuad()
                    if (0xDC00...0xDFFF).contains(low) {
                        code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                    } else {
                        position = saved
                    }
                }
                text.unicodeScalars.append(UnicodeScalar(code) ?? "\u{FFFD}")
            default:
                throw failure("the escape '\\\(Self.printable(escape))' is not JSON")
            }
            runStart = position
        }
    }

    private mutating func hexQuad() throws(EvaluationError) -> UInt32 {
        guard position + 4 <= bytes.count else { throw failure("the file ends inside a \\u escape") }
        var code: UInt32 = 0
        for byte in bytes[position..<position + 4] {
            let digit: UInt32
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A") + 10)
            default: throw failure("a \\u escape needs four hexadecimal digits")
            }
            code = code << 4 | digit
        }
        position += 4
        return code
    }
}
