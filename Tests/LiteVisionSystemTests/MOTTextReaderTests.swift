import Foundation
import LiteVisionSystem
import LiteVisionTestSupport
import Testing

/// The one reader of MOTChallenge text, on hostile bytes: every input ends in rows or one error that names its
/// line, never a crash or an allocation beyond the bounds.
@Suite("MOTChallenge text reader")
struct MOTTextReaderTests {
    /// A format as the detection files' (7 to 10 columns), with small bounds where a test needs them.
    static func format(
        columns: ClosedRange<Int> = 7...10, maximumFileSize: Int = 1 << 30, maximumRows: Int = 1000
    ) -> MOTTextReader.Format {
        MOTTextReader.Format(
            columnNames: ["frame", "id", "x", "y", "width", "height", "score"], columns: columns,
            shape: "frame,id,x,y,w,h,score[,…]", maximumFileSize: maximumFileSize, maximumRows: maximumRows,
            maximumFrame: 1000)
    }

    /// The rows of `bytes`, or the error.
    static func read(
        _ bytes: [UInt8], format: MOTTextReader.Format = format()
    ) -> Result<
        [MOTTextReader.Row], MOTTextError
    > {
        Result { () throws(MOTTextError) -> [MOTTextReader.Row] in
            var reader = try MOTTextReader(bytes: bytes, path: "t.txt", format: format)
            var rows: [MOTTextReader.Row] = []
            while let row = try reader.nextRow() { rows.append(row) }
            return rows
        }
    }

    static func read(
        _ text: String, format: MOTTextReader.Format = format()
    ) -> Result<
        [MOTTextReader.Row], MOTTextError
    > {
        read(Array(text.utf8), format: format)
    }

    /// The error `text` must be refused with.
    static func failure(_ text: String, format: MOTTextReader.Format = format()) -> MOTTextError? {
        if case .failure(let error) = read(text, format: format) { return error }
        return nil
    }

    @Test("Rows: their numbers and lines, through CRLF, CR, blank lines, spaces, a BOM and a trailing comma")
    func wellFormed() throws {
        let text = "\u{FEFF}1,-1,10,20,30,40,0.9\r\n\r\n \t \n2, -1 ,1e1, 2.5e1,30,40,0.5,\n3 -1 16. 20 30 40 1\n"
        let rows = try Self.read(text).get()
        #expect(rows.map(\.line) == [1, 4, 5])
        #expect(rows.map(\.frame) == [1, 2, 3])
        #expect(rows[0].values == [1, -1, 10, 20, 30, 40, 0.9])
        #expect(rows[1].values == [2, -1, 10, 25, 30, 40, 0.5])
        #expect(rows[1].texts[2] == "1e1")
        #expect(rows[2].values[2] == 16)
        #expect(rows[0].value(column: 8) == nil && rows[0].value(column: 7) == 0.9)
        #expect(rows.allSatisfy { $0.extraValues.isEmpty })
        // Without a final newline, and an empty file or a lone BOM: no rows.
        #expect(try Self.read("5,-1,1,2,3,4,1").get().map(\.frame) == [5])
        #expect(try Self.read("").get().isEmpty)
        #expect(try Self.read([0xEF, 0xBB, 0xBF]).get().isEmpty)
        #expect(try Self.read("\n\r\n\n").get().isEmpty)
        // Lines ending in a lone CR (old Mac text), as Python and so TrackEval read them; CR CR LF is two lines.
        let mac = try Self.read("1,-1,10,20,30,40,0.9\r2,-1,10,20,30,40,0.5\r\r\n3,-1,1,2,3,4,1\r").get()
        #expect(mac.map(\.line) == [1, 2, 4])
        #expect(mac.map(\.frame) == [1, 2, 3])
        #expect(mac[1].values == [2, -1, 10, 20, 30, 40, 0.5])
    }

    @Test("Columns after the tenth reach the hook (Row.extraValues) when the format allows them")
    func extraColumns() throws {
        let row = try #require(
            try Self.read("1,-1,1,2,3,4,1,-1,-1,-1,0.25,-0.5\n", format: Self.format(columns: 7...12)).get().first)
        #expect(Array(row.extraValues) == [0.25, -0.5])
        #expect(
            Self.failure("1,-1,1,2,3,4,1,-1,-1,-1,0.25\n")?.problem
                == "11 columns, expected 7 to 10: frame,id,x,y,w,h,score[,…]")
    }

    @Test(
        "Every malformed line is refused with its line and what to write",
        arguments: [
            ("1,-1,10,10,20,20\n", 1, "6 columns, expected 7 to 10: frame,id,x,y,w,h,score[,…]"),
            ("1\n", 1, "1 column, expected 7 to 10: frame,id,x,y,w,h,score[,…]"),
            ("1,-1,1,2,3,4,5,6,7,8,9\n", 1, "11 columns, expected 7 to 10: frame,id,x,y,w,h,score[,…]"),
            ("\n\n1,-1,nan,2,3,4,1\n", 3, "column 3 (x) is nan: write a finite number"),
            ("1,-1,1,NaN,3,4,1\n", 1, "column 4 (y) is NaN: write a finite number"),
            ("1,-1,1,2,inf,4,1\n", 1, "column 5 (width) is inf: write a finite number"),
            ("1,-1,1,2,3,-infinity,1\n", 1, "column 6 (height) is -infinity: write a finite number"),
            ("1,-1,1,2,3,4,1e400\n", 1, "column 7 (score) is 1e400: write a finite number"),
            ("1,-1,1,2,3,4,1,-1e999\n", 1, "column 8 is -1e999: write a finite number"),
            ("1,-1,1e308,2,3,4,1\n", 1, "column 3 (x) is 1e308: write a number from -1000000 to 1000000 (pixels)"),
            ("1,-1,1,2,-1e7,4,1\n", 1, "column 5 (width) is -1e7: write a number from -1000000 to 1000000 (pixels)"),
            ("1e40,-1,1,2,3,4,1\n", 1, "column 1 (frame) is 1e40: write a whole number from 1 to 1000"),
            (
                "9007199254740993,-1,1,2,3,4,1\n", 1,
                "column 1 (frame) is 9007199254740993: write a whole number from 1 to 1000"
            ),
            ("-1,-1,1,2,3,4,1\n", 1, "column 1 (frame) is -1: write a whole number from 1 to 1000"),
            ("2.5,-1,1,2,3,4,1\n", 1, "column 1 (frame) is 2.5: write a whole number from 1 to 1000"),
            ("1,-1,1,2,3,4,1,,\n", 1, "column 8 is empty: write a number"),
            ("1,,1,2,3,4,1\n", 1, "column 2 (id) is empty: write a number"),
            (",1,-1,1,2,3,4,1\n", 1, "column 1 (frame) is empty: write a number"),
            ("1,-1,1 2,2,3,4,1\n", 1, "column 3 (x) is not a number: '1 2'"),
            // Swift's Double(_:) reads hexadecimal; Python's float, as TrackEval reads the format, does not.
            ("1,-1,0x10,2,3,4,1\n", 1, "column 3 (x) is 0x10, in hexadecimal: write a decimal number"),
            ("1,-1,1,2,3,-0X1.4p3,1\n", 1, "column 6 (height) is -0X1.4p3, in hexadecimal: write a decimal number"),
            ("1;-1;1;2;3;4;1\n", 1, "1 column, expected 7 to 10: frame,id,x,y,w,h,score[,…]"),
            ("1,-1,1,2,3,4,1\n\u{FEFF}2,-1,1,2,3,4,1\n", 2, "column 1 (frame) is not a number: '\u{FEFF}2'"),
            ("1,-1,1,2,3,4,\u{1B}[31m\n", 1, "column 7 (score) is not a number: '\u{1B}[31m'"),
            ("1,-1,1,2,3,4,1\u{0}2\n", 1, "column 7 (score) is not a number: '1\u{0}2'"),
            (
                "1,-1,1,2,3,4," + String(repeating: "1", count: 65) + "\n", 1,
                "column 7 (score) is longer than 64 characters: write a number"
            ),
        ])
    func malformed(text: String, line: Int, problem: String) {
        let error = Self.failure(text)
        #expect(error == MOTTextError(path: "t.txt", line: line, problem: problem), "\(text.debugDescription)")
    }

    @Test("A 10 MB line is refused at once, on its line; a line of the longest length is read")
    func longLines() throws {
        let long =
            Array("1,-1,1,2,3,4,1\n".utf8) + [UInt8](repeating: UInt8(ascii: "7"), count: 10 << 20)
            + Array("\n1,-1,1,2,3,4,1\n".utf8)
        let started = ContinuousClock.now
        guard case .failure(let error) = Self.read(long) else {
            Issue.record("a 10 MB line was read")
            return
        }
        #expect(ContinuousClock.now - started < .seconds(2))
        #expect(error.line == 2)
        #expect(error.problem == "the line is longer than 4096 bytes: write one row of at most 10 numbers per line")
        // 10 MB of commas: the same refusal, not 10 million columns.
        let commas = [UInt8](repeating: UInt8(ascii: ","), count: 10 << 20)
        #expect(Self.failure(String(decoding: commas, as: UTF8.self))?.line == 1)
        // 4096 bytes and a CRLF are one line; 4097 are not.
        let padded = "1,-1,1,2,3,4," + String(repeating: " ", count: 4096 - 15) + "1"
        #expect(padded.utf8.count == 4096 - 1)
        #expect(try Self.read(padded + " \r\n").get().count == 1)
        #expect(Self.failure(padded + "  \r\n")?.problem.hasPrefix("the line is longer than 4096 bytes") == true)
    }

    @Test("Binary files and bytes that are not UTF-8 are refused with the line, never a crash")
    func binary() {
        var bytes: [UInt8] = []
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        for _ in 0..<(256 << 10) {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            bytes.append(UInt8(truncatingIfNeeded: state >> 56))
        }
        guard case .failure(let error) = Self.read(bytes) else {
            Issue.record("random bytes were read as rows")
            return
        }
        #expect(error.line != nil)
        let invalid = MOTTextError(
            path: "t.txt", line: 2, problem: "the line is not UTF-8 text: save the file as UTF-8")
        #expect(Self.read(Array("1,-1,1,2,3,4,1\n".utf8) + [0x31, 0x2C, 0xFF, 0xFE, 0x0A]).failure == invalid)
        // NUL bytes are text, but not numbers: Double("1\0x") alone would read 1.
        #expect(Self.failure("1,-1,1,2,3,4,1\0x\n")?.problem == "column 7 (score) is not a number: '1\0x'")
    }

    @Test("The bounds: file size before reading, then rows")
    func bounds() throws {
        let row = "1,-1,1,2,3,4,1\n"
        let small = Self.format(maximumFileSize: 30, maximumRows: 3)
        #expect(try Self.read(row + row, format: small).get().count == 2)
        #expect(
            Self.read(row + row + "1", format: small).failure?.problem == "the file is larger than the 30-byte limit")
        let rows = Self.format(maximumRows: 3)
        #expect(try Self.read(String(repeating: row, count: 3) + "\n\n", format: rows).get().count == 3)
        #expect(
            Self.read(String(repeating: row, count: 3) + "\n" + row, format: rows).failure
                == MOTTextError(path: "t.txt", line: 5, problem: "more than 3 rows: split the file"))
    }

    @Test("A missing file, a directory and a file over the size bound are refused before reading")
    func files() throws {
        let folder = TestData.temporaryDirectory("mot-text")
        defer { try? FileManager.default.removeItem(at: folder) }
        let missing = folder.appendingPathComponent("none.txt").path
        let format = Self.format(maximumFileSize: 20)
        #expect(throws: MOTTextError(path: missing, problem: "no such file")) {
            try MOTTextReader.readFile(atPath: missing, format: format)
        }
        #expect(throws: MOTTextError(path: folder.path, problem: "it is a directory")) {
            try MOTTextReader.readFile(atPath: folder.path, format: format)
        }
        let big = folder.appendingPathComponent("big.txt").path
        try Data(repeating: 0x31, count: 21).write(to: URL(fileURLWithPath: big))
        #expect(throws: MOTTextError(path: big, problem: "the file is larger than the 20-byte limit")) {
            try MOTTextReader.readFile(atPath: big, format: format)
        }
        #expect(MOTTextError(path: "a.txt", line: 3, problem: "p").description == "a.txt:3: p")
        #expect(MOTTextError(path: "a.txt", problem: "p").description == "a.txt: p")
    }
}

extension Result {
    /// The error, or nil.
    fileprivate var failure: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}
