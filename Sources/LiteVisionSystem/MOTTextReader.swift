/// The one reader of MOTChallenge text files (`frame,id,x,y,w,h,…`, one box per line): the ground truth and
/// tracker results of `litevision eval track` and the detections of `litevision track --detections` are small
/// layers over it, each with its own ``Format`` and its own rules for the id and the columns after the sixth.
///
/// The reader holds what every use shares, and every byte is hostile until it has passed:
/// - bounds, checked before anything is allocated for them: the file's size, each line's length, the number of
///   rows, the number of columns;
/// - the text: UTF-8 (a leading byte-order mark is skipped), lines ending in LF, CRLF or CR, lines of only spaces
///   and tabs skipped; columns separated by commas, or, on a line without a comma, by spaces and tabs (as
///   TrackEval reads them); spaces and tabs around a column ignored; one trailing comma ignored;
/// - the numbers: every column a finite decimal number (not hexadecimal, which Python's readers of the format refuse)
///   of at most ``maximumFieldLength`` characters, the frame (column 1) a whole number from 1 to the format's
///   ``Format/maximumFrame``, the box (columns 3 to 6) within ±``Format/maximumCoordinate`` pixels.
///
/// Each refusal is a ``MOTTextError`` naming the file, the line and the column, with what to write instead.
/// Rows are read one at a time with ``nextRow()``, so that each layer keeps only what it needs.
package struct MOTTextReader: Sendable {
    /// What one use of the format accepts: its columns, its names for them, and its bounds.
    package struct Format: Sendable {
        /// The names of the columns, from the first, in messages ("column 5 (width)"); columns past the end of
        /// the list are named by number only.
        package var columnNames: [String]
        /// How many columns a row may have.
        package var columns: ClosedRange<Int>
        /// The row as messages show it, such as `frame,id,x,y,w,h,score[,…]`.
        package var shape: String
        /// The largest file read, in bytes.
        package var maximumFileSize: Int
        /// The longest line, in bytes, without its line ending.
        package var maximumLineLength: Int
        /// The most rows (lines that are not blank).
        package var maximumRows: Int
        /// The largest frame number.
        package var maximumFrame: Int
        /// The largest magnitude of x, y, width and height (columns 3 to 6), in pixels.
        package var maximumCoordinate: Double
        /// What a row with more columns than ``columns`` allows is told besides (what the extra columns could be
        /// and how to read them), or empty.
        package var extraColumnsHint = ""

        /// A format: `columnNames` name the columns in messages, `columns` bounds their count, and `shape` shows a
        /// row in messages.
        package init(
            columnNames: [String], columns: ClosedRange<Int>, shape: String, maximumFileSize: Int,
            maximumLineLength: Int = 4096, maximumRows: Int, maximumFrame: Int, maximumCoordinate: Double = 1_000_000
        ) {
            precondition(columns.lowerBound >= 6, "a MOTChallenge row has at least frame,id,x,y,w,h")
            self.columnNames = columnNames
            self.columns = columns
            self.shape = shape
            self.maximumFileSize = maximumFileSize
            self.maximumLineLength = maximumLineLength
            self.maximumRows = maximumRows
            self.maximumFrame = maximumFrame
            self.maximumCoordinate = maximumCoordinate
        }

        /// `column 5 (width)`, or `column 12` for a column without a name.
        package func name(ofColumn column: Int) -> String {
            column <= columnNames.count ? "column \(column) (\(columnNames[column - 1]))" : "column \(column)"
        }
    }

    /// One row: its numbers, checked as the reader checks them.
    package struct Row: Sendable {
        /// The line it is on, from 1.
        package var line: Int
        /// Every column, in order: as many as the format allows, at least 6.
        package var values: [Double]
        /// The text of every column (spaces around it removed), for messages.
        package var texts: [String]

        /// The frame (column 1), from 1.
        package var frame: Int { Int(values[0]) }

        /// Column `column` (from 1), or nil when the row has fewer.
        package func value(column: Int) -> Double? {
            column <= values.count ? values[column - 1] : nil
        }

        /// The columns after the tenth (the last one MOTChallenge defines), for a format that reads more, such
        /// as appearance vectors: empty unless the format's ``Format/columns`` goes past 10.
        package var extraValues: ArraySlice<Double> { values.dropFirst(MOTTextReader.standardColumnCount) }
    }

    /// The columns MOTChallenge defines: `frame,id,x,y,w,h,conf,x,y,z` (or class and visibility in the seventh
    /// to ninth). What comes after them is ``Row/extraValues``.
    package static let standardColumnCount = 10
    /// The longest column, in characters: more than any number needs.
    package static let maximumFieldLength = 64

    /// The file the bytes came from (for errors).
    package let path: String
    /// What the file must hold.
    package let format: Format
    private let bytes: [UInt8]
    private var position = 0
    private var lineNumber = 0
    private var rowCount = 0

    /// The bytes of the file at `path`, refused when it is not a readable regular file or is larger than the
    /// format's ``Format/maximumFileSize`` (checked before reading).
    package static func readFile(atPath path: String, format: Format) throws(MOTTextError) -> [UInt8] {
        do throws(SystemError) {
            return try FileContents.read(atPath: path, maximumSize: format.maximumFileSize)
        } catch {
            throw MOTTextError(path: path, problem: error.reason)
        }
    }

    /// A reader of `bytes`, the content of `path`, refused when they are more than the format allows.
    package init(bytes: [UInt8], path: String, format: Format) throws(MOTTextError) {
        guard bytes.count <= format.maximumFileSize else {
            throw MOTTextError(path: path, problem: "the file is larger than the \(format.maximumFileSize)-byte limit")
        }
        self.bytes = bytes
        self.path = path
        self.format = format
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { position = 3 }
    }

    /// An error at `line` of the file (for the layers' own rules).
    package func error(line: Int?, _ problem: String) -> MOTTextError {
        MOTTextError(path: path, line: line, problem: problem)
    }

    /// The next row, or nil at the end of the file; an error names the first line that breaks a rule.
    package mutating func nextRow() throws(MOTTextError) -> Row? {
        while position < bytes.count {
            lineNumber += 1
            let start = position
            // A line ends at LF, CRLF or a lone CR (as Python reads text, so TrackEval). Never look further than
            // the longest line allowed and one byte.
            let scanEnd = min(bytes.count, start + format.maximumLineLength + 1)
            var end = start
            while end < scanEnd && bytes[end] != UInt8(ascii: "\n") && bytes[end] != UInt8(ascii: "\r") { end += 1 }
            let contentEnd = end
            position = end + 1
            if end + 1 < bytes.count && bytes[end] == UInt8(ascii: "\r") && bytes[end + 1] == UInt8(ascii: "\n") {
                position += 1
            }
            guard contentEnd - start <= format.maximumLineLength else {
                throw error(
                    line: lineNumber,
                    "the line is longer than \(format.maximumLineLength) bytes: write one row of at most "
                        + "\(format.columns.upperBound) numbers per line")
            }
            let line = bytes[start..<contentEnd]
            if line.contains(where: { $0 >= 0x80 }) && String(validating: line, as: UTF8.self) == nil {
                throw error(line: lineNumber, "the line is not UTF-8 text: save the file as UTF-8")
            }
            if line.allSatisfy(Self.isSpace) { continue }
            rowCount += 1
            guard rowCount <= format.maximumRows else {
                throw error(line: lineNumber, "more than \(format.maximumRows) rows: split the file")
            }
            return try row(line)
        }
        return nil
    }

    /// Space, tab or carriage return.
    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\r")
    }

    /// The columns of a line that is not blank, as ranges of `bytes` without the spaces around them.
    private func fields(_ line: ArraySlice<UInt8>) -> [Range<Int>] {
        var fields: [Range<Int>] = []
        if line.contains(UInt8(ascii: ",")) {
            var fieldStart = line.startIndex
            for index in line.startIndex...line.endIndex
            where index == line.endIndex || bytes[index] == UInt8(ascii: ",") {
                var lower = fieldStart, upper = index
                while lower < upper && Self.isSpace(bytes[lower]) { lower += 1 }
                while upper > lower && Self.isSpace(bytes[upper - 1]) { upper -= 1 }
                fields.append(lower..<upper)
                fieldStart = index + 1
            }
            // A trailing comma (`…,-1,`) ends the row, as in TrackEval.
            if fields.count > 1, fields.last?.isEmpty == true { fields.removeLast() }
        } else {
            var index = line.startIndex
            while index < line.endIndex {
                while index < line.endIndex && Self.isSpace(bytes[index]) { index += 1 }
                let fieldStart = index
                while index < line.endIndex && !Self.isSpace(bytes[index]) { index += 1 }
                if index > fieldStart { fields.append(fieldStart..<index) }
            }
        }
        return fields
    }

    /// The numbers of a line that is not blank, checked.
    private func row(_ line: ArraySlice<UInt8>) throws(MOTTextError) -> Row {
        let fields = fields(line)
        let columns = format.columns
        guard columns.contains(fields.count) else {
            let expected =
                columns.count == 1 ? "\(columns.lowerBound)" : "\(columns.lowerBound) to \(columns.upperBound)"
            let hint =
                fields.count > columns.upperBound && !format.extraColumnsHint.isEmpty
                ? " (\(format.extraColumnsHint))" : ""
            throw error(
                line: lineNumber,
                "\(fields.count) column\(fields.count == 1 ? "" : "s"), expected \(expected): \(format.shape)\(hint)")
        }
        var values: [Double] = []
        var texts: [String] = []
        values.reserveCapacity(fields.count)
        texts.reserveCapacity(fields.count)
        for (index, field) in fields.enumerated() {
            let column = index + 1
            let name = format.name(ofColumn: column)
            guard !field.isEmpty else { throw error(line: lineNumber, "\(name) is empty: write a number") }
            guard field.count <= Self.maximumFieldLength else {
                throw error(
                    line: lineNumber, "\(name) is longer than \(Self.maximumFieldLength) characters: write a number")
            }
            let text = String(decoding: bytes[field], as: UTF8.self)
            // Only printable ASCII goes to Double(_:), which stops at a NUL byte ("1\0x" would be 1). It takes
            // "nan" and "inf", and a number too large for a Double as infinity: all are refused as not finite. It also
            // reads hexadecimal ("0x10" as 16), which the format's other readers (Python's float) refuse.
            guard bytes[field].allSatisfy({ $0 > 0x20 && $0 < 0x7F }), let value = Double(text) else {
                throw error(line: lineNumber, "\(name) is not a number: '\(text.prefix(40))'")
            }
            guard !bytes[field].contains(where: { $0 | 0x20 == UInt8(ascii: "x") }) else {
                throw error(line: lineNumber, "\(name) is \(text.prefix(40)), in hexadecimal: write a decimal number")
            }
            guard value.isFinite else { throw error(line: lineNumber, "\(name) is \(text): write a finite number") }
            values.append(value)
            texts.append(text)
        }
        let frame = values[0]
        guard frame == frame.rounded(), frame >= 1, frame <= Double(format.maximumFrame) else {
            throw error(
                line: lineNumber,
                "\(format.name(ofColumn: 1)) is \(texts[0]): write a whole number from 1 to \(format.maximumFrame)")
        }
        for column in 3...6 where abs(values[column - 1]) > format.maximumCoordinate {
            let limit = Int(format.maximumCoordinate)
            throw error(
                line: lineNumber,
                "\(format.name(ofColumn: column)) is \(texts[column - 1]): write a number from -\(limit) to \(limit) "
                    + "(pixels)")
        }
        return Row(line: lineNumber, values: values, texts: texts)
    }
}
