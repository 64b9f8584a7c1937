import LiteVisionGeometry
import LiteVisionSystem

/// A MOTChallenge text file (`frame,id,x,y,w,h,conf,class,visibility,…`, one box per line), as TrackEval's
/// `MotChallenge2DBox` reads it: columns separated by commas (or, when a line has none, by spaces), frames
/// counted from 1. The text, its bounds and its numbers are ``MOTTextReader``'s; this layer adds the id rule (a
/// whole number from 0) and keeps the seventh and eighth columns.
///
/// In a ground-truth file the seventh column is MOTChallenge's "consider" flag: a row whose flag cuts to 0 as a whole
/// number (0, 0.87, -0.5; TrackEval's `astype(int)`) is not evaluated (TrackEval drops it with or without its
/// preprocessing); the eighth is the class, used only by the MOT17 rules. In a results file the seventh column is a
/// confidence, not used.
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
    /// The most columns a row may have: MOTChallenge's 10, and more that are not read (TrackEval reads only the
    /// first 9).
    package static let maximumColumnCount = 64

    /// The format's bounds and column names, for ``MOTTextReader``.
    static let format = MOTTextReader.Format(
        columnNames: ["frame", "id", "x", "y", "width", "height", "conf", "class", "visibility"],
        columns: 6...maximumColumnCount,
        shape: "frame,id,x,y,w,h[,conf,class,visibility,…]", maximumFileSize: maximumFileSize,
        maximumRows: maximumRowCount, maximumFrame: maximumFrame)

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
        let bytes: [UInt8]
        do throws(MOTTextError) {
            bytes = try MOTTextReader.readFile(atPath: path, format: Self.format)
        } catch {
            throw EvaluationError(error)
        }
        try self.init(bytes: bytes, path: path)
    }

    /// Parses `bytes`, the content of `path`: ``MOTTextReader``'s rows, each with an id that is a whole number
    /// from 0 to ``maximumID``.
    package init(bytes: [UInt8], path: String) throws(EvaluationError) {
        self.path = path
        rows = []
        do throws(MOTTextError) {
            var reader = try MOTTextReader(bytes: bytes, path: path, format: Self.format)
            while let row = try reader.nextRow() {
                let id = row.values[1]
                guard id == id.rounded(), id >= 0, id <= Double(Self.maximumID) else {
                    throw reader.error(
                        line: row.line,
                        "\(Self.format.name(ofColumn: 2)) is \(row.texts[1]): write a whole number from 0 to "
                            + "\(Self.maximumID)")
                }
                let box = BoundingBox(x: row.values[2], y: row.values[3], width: row.values[4], height: row.values[5])
                rows.append(
                    Row(
                        frame: row.frame, id: Int(id), box: box, flag: row.value(column: 7),
                        objectClass: row.value(column: 8), line: row.line))
            }
        } catch {
            throw EvaluationError(error)
        }
    }
}

extension EvaluationError {
    /// The error of a MOTChallenge text file, as an evaluation error.
    init(_ error: MOTTextError) {
        self.init(file: error.path, line: error.line, reason: error.problem)
    }
}
