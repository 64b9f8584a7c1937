import LiteVisionGeometry

/// A MOTChallenge text file (`frame,id,x,y,w,h,conf,class,visibility,…`, one box per line), as TrackEval's
/// `MotChallenge2DBox` reads it: columns separated by commas (or, when a line has none, by spaces), frames
/// counted from 1.
///
/// In a ground-truth file the seventh column is MOTChallenge's "consider" flag: a row whose flag is 0 is not
/// evaluated (TrackEval drops it with or without its preprocessing); the eighth is the class, used only by the
/// MOT17 rules. In a results file the seventh column is a confidence, not used.
package struct MOTFile: Sendable {
    /// One box.
    package struct Row: Sendable, Equatable {
        /// The frame, from 1.
        package var frame: Int
        /// The object (ground truth) or track (results) id.
        package var id: Int
        /// The box.
        package var box: BoundingBox
        /// The seventh column (the ground truth's consider flag), or nil when the line has only six.
        package var flag: Double?
        /// The eighth column (the ground truth's class), or nil.
        package var objectClass: Double?
        /// The 1-based line it was on.
        package var line: Int
    }

    /// The largest file read.
    package static let maximumFileSize = 512 << 20
    /// The most rows a file may hold.
    package static let maximumRowCount = 20_000_000
    /// The largest frame number.
    package static let maximumFrame = 100_000_000
    /// The largest id.
    package static let maximumID = 1 << 40

    /// The path the rows came from (for errors).
    package var path: String
    /// The rows, in file order.
    package var rows: [Row]

    /// Rows that belong to `path`.
    package init(path: String, rows: [Row]) {
        self.path = path
        self.rows = rows
    }

    /// Reads the file at `path`.
    package init(contentsOfFile path: String) throws(EvaluationError) {
        let bytes = try EvaluationError.readFile(atPath: path, maximumSize: Self.maximumFileSize)
        try self.init(bytes: bytes, path: path)
    }

    /// Parses `bytes`, the content of `path`.
    package init(bytes: [UInt8], path: String) throws(EvaluationError) {
        self.path = path
        rows = []
        var lineNumber = 0
        var start = 0
        while start < bytes.count {
            var end = start
            while end < bytes.count && bytes[end] != UInt8(ascii: "\n") { end += 1 }
            lineNumber += 1
            defer { start = end + 1 }
            var line = bytes[start..<end]
            if line.last == UInt8(ascii: "\r") { line = line.dropLast() }
            if line.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { continue }
            guard rows.count < Self.maximumRowCount else {
                throw EvaluationError(file: path, line: lineNumber, reason: "more than \(Self.maximumRowCount) rows")
            }
            rows.append(try Self.row(line, number: lineNumber, path: path))
        }
    }

    private static func row(_ line: ArraySlice<UInt8>, number: Int, path: String) throws(EvaluationError) -> Row {
        let separatedByCommas = line.contains(UInt8(ascii: ","))
        var fields: [Substring] = []
        let text = String(decoding: line, as: UTF8.self)
        if separatedByCommas {
            fields = text.split(separator: ",", omittingEmptySubsequences: false).map {
                $0.drop { $0 == " " || $0 == "\t" }
            }
            // A trailing separator (`…,-1,`) ends the row, as in TrackEval.
            if let last = fields.last, last.allSatisfy({ $0 == " " || $0 == "\t" }) { fields.removeLast() }
        } else {
            fields = text.split(whereSeparator: { $0 == " " || $0 == "\t" })
        }
        func failure(_ reason: String) -> EvaluationError { EvaluationError(file: path, line: number, reason: reason) }
        guard fields.count >= 6 else {
            throw failure("a row needs at least 6 columns (frame,id,x,y,w,h), found \(fields.count)")
        }
        var values: [Double] = []
        for (column, field) in fields.enumerated() {
            let trimmed = field.trimmingSuffix()
            guard trimmed.utf8.count <= 64, let value = Double(trimmed) else {
                throw failure("column \(column + 1) is not a number: \"\(trimmed.prefix(40))\"")
            }
            guard value.isFinite else { throw failure("column \(column + 1) is \(trimmed), not a finite number") }
            values.append(value)
        }
        guard values[0] == values[0].rounded(), values[0] >= 1, values[0] <= Double(maximumFrame) else {
            throw failure("the frame must be a whole number from 1 to \(maximumFrame), not \(fields[0])")
        }
        guard values[1] == values[1].rounded(), values[1] >= 0, values[1] <= Double(maximumID) else {
            throw failure("the id must be a whole number from 0 to \(maximumID), not \(fields[1])")
        }
        return Row(
            frame: Int(values[0]), id: Int(values[1]),
            box: BoundingBox(x: values[2], y: values[3], width: values[4], height: values[5]),
            flag: values.count > 6 ? values[6] : nil, objectClass: values.count > 7 ? values[7] : nil, line: number)
    }
}

extension Substring {
    fileprivate func trimmingSuffix() -> Substring {
        var text = self
        while let last = text.last, last == " " || last == "\t" { text = text.dropLast() }
        return text
    }
}
