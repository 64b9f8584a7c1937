import Foundation
import LiteVisionEvaluation
import LiteVisionTestSupport
import Testing

/// The bounded JSON reader: numbers read as Python's `json` reads them (the reference tools' reader), strict
/// syntax, errors with the line.
@Suite("JSONReader")
struct JSONReaderTests {
    @Test("numbers and strings read as Python's json module reads them")
    func sameAsPython() throws {
        let text = """
            [0, -0.0, 0.1, 1e-320, 2.5e+3, 123456789012345678901234567890, 9007199254740993, 1.7976931348623157e308,
             -12.75, 3.14159265358979323846, "a\\u00e9\\ud83d\\ude00\\n\\"\\\\/", "caf\u{e9}", {"k": 1, "k": 2}]
            """
        // One repr per line, read back with Double(String) (exact; Foundation's JSON reader rounds some numbers).
        let script = "import json, sys; v = json.loads(sys.argv[1]); print('\\n'.join(repr(float(x)) for x in v[:10]))"
        let result = try LiteVisionExecutable.run(["python3", "-c", script, text], program: "/usr/bin/env")
        try #require(result.status == 0, "\(result.errors)")
        let expected = result.output.split(separator: "\n").compactMap { Double($0) }
        #expect(expected.count == 10)
        let parsed = try JSONReader.parse(Array(text.utf8), file: "t.json")
        guard case .array(let items) = parsed else {
            Issue.record("not an array: \(parsed)")
            return
        }
        for (index, value) in expected.enumerated() {
            #expect(items[index] == .number(value), "item \(index): \(items[index]) vs \(value)")
        }
        #expect(items[10] == .string("a\u{e9}\u{1F600}\n\"\\/"))
        #expect(items[11] == .string("caf\u{e9}"))
        #expect(items[12]["k"] == .number(2), "a repeated key keeps its last value, as in Python")
    }

    @Test("whole numbers are written as integers up to 2^53, as ids are read")
    func integralNumbersWritten() {
        let values: [Double] = [
            0, 3, -7, 999_999_999_999_999, 1_234_567_890_123_456, -9_007_199_254_740_991, 9_007_199_254_740_992, 0.5,
        ]
        let text = JSONValue.array(values.map { .number($0) }).text
        #expect(
            text == "[0, 3, -7, 999999999999999, 1234567890123456, -9007199254740991, 9007199254740992.0, 0.5]")
    }

    @Test(
        "malformed JSON: an error naming the line",
        arguments: [
            ("{\n\"a\": [1, 2,]\n}", 2, "unexpected character ']'"),
            ("[1,\n\n NaN]", 3, "NaN and Infinity are not numbers"),
            ("[-Infinity]", 1, "NaN and Infinity are not numbers"),
            ("[1e400]", 1, "out of range"),
            ("[01]", 1, "may not start with 0"),
            ("{\"a\" 1}", 1, "a ':' must follow"),
            ("[\"tab\there\"]", 1, "control character"),
            ("[1] [2]", 1, "unexpected text after"),
            ("", 1, "the file is empty"),
            ("\n\n[1, 2", 3, "ends inside an array"),
        ])
    func malformed(text: String, line: Int, message: String) {
        #expect {
            _ = try JSONReader.parse(Array(text.utf8), file: "bad.json")
        } throws: { error in
            guard let error = error as? EvaluationError else { return false }
            return error.line == line && error.file == "bad.json" && error.reason.contains(message)
        }
    }

    @Test("deep nesting is refused, not a stack overflow")
    func deep() {
        #expect(throws: EvaluationError.self) {
            _ = try JSONReader.parse(Array(String(repeating: "[", count: 1_000_000).utf8), file: "deep.json")
        }
    }
}
