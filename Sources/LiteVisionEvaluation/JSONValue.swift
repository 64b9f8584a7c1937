import LiteVisionSystem

/// A parsed JSON value, as ``JSONReader`` makes it. Numbers are doubles (what Python's `json` module gives
/// the reference tools for numbers with a fraction or exponent, and exact for integers up to 2⁵³).
package indirect enum JSONValue: Sendable, Equatable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    /// The members in file order; a repeated key keeps its last value when looked up, as in Python.
    case object([(key: String, value: JSONValue)])

    package static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): return true
        case (.bool(let a), .bool(let b)): return a == b
        case (.number(let a), .number(let b)): return a == b
        case (.string(let a), .string(let b)): return a == b
        case (.array(let a), .array(let b)): return a == b
        case (.object(let a), .object(let b)):
            return a.count == b.count && zip(a, b).allSatisfy { $0.key == $1.key && $0.value == $1.value }
        default: return false
        }
    }

    /// The value of `key` in an object (the last one when the key is repeated), or nil.
    package subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.last { $0.key == key }?.value
    }

    /// What kind of value this is, for error messages ("a string", "an array", ...).
    package var kind: String {
        switch self {
        case .null: return "null"
        case .bool: return "a boolean"
        case .number: return "a number"
        case .string: return "a string"
        case .array: return "an array"
        case .object: return "an object"
        }
    }
}

extension JSONValue {
    /// A number, or null for nil (an undefined metric).
    package static func number(_ value: Double?) -> JSONValue { value.map { .number($0) } ?? .null }

    /// The value as compact JSON text, numbers written so that they read back to the same double (integral
    /// values under 2^53 in magnitude without a fraction: `3`, not `3.0`).
    package var text: String {
        var output = ""
        write(to: &output)
        return output
    }

    private func write(to output: inout String) {
        switch self {
        case .null: output += "null"
        case .bool(let flag): output += flag ? "true" : "false"
        case .number(let number):
            // Every integer the readers accept as an id (up to 2^53 − 1 in magnitude) is written as one.
            if number == number.rounded(), abs(number) < 0x1p53 {
                output += String(Int64(number))
            } else {
                output += "\(number)"
            }
        case .string(let text): output += JSONString.quoted(text)
        case .array(let items):
            output += "["
            for (index, item) in items.enumerated() {
                if index > 0 { output += ", " }
                item.write(to: &output)
            }
            output += "]"
        case .object(let members):
            output += "{"
            for (index, member) in members.enumerated() {
                if index > 0 { output += ", " }
                output += JSONString.quoted(member.key)
                output += ": "
                member.value.write(to: &output)
            }
            output += "}"
        }
    }
}
