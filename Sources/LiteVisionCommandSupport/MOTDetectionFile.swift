import LiteVisionSystem
import LiteVisionTracking

/// A MOTChallenge detection file, as `litevision track --detections` reads it: one detection per line,
/// `frame,-1,x,y,w,h,score[,…]` — the frame from 1, the id -1 (a detection belongs to no track yet), the box's
/// left, top, width and height in pixels, the detector's score, and up to three more numbers that are not read
/// (MOT's `-1,-1,-1`).
///
/// The text, its bounds and its numbers are ``MOTTextReader``'s (the same reader as `litevision eval track`'s
/// files): lines may end in CRLF, columns may have spaces around them or be separated by spaces alone, blank lines
/// are skipped, and a malformed line is refused with its line number and what to write instead. This layer adds
/// the detections' own rules: the id is -1, the box has a positive width and height, a frame holds at most
/// ``maximumPerFrame`` detections, and the columns after the tenth go to one hook (none is read yet). Rows may
/// come in any order: they are grouped by frame, and the frames are 1 up to the largest frame given, so that
/// frames without detections still count.
package struct MOTDetectionFile: Sendable {
    /// The largest file read: 256 MiB (some 5 million rows).
    package static let maximumFileSize = 256 << 20
    /// The most rows.
    package static let maximumRows = 10_000_000
    /// The largest frame number: a million frames, over nine hours at 30 fps. Frames without detections are
    /// tracked too, so this bounds the work.
    package static let maximumFrame = 1_000_000
    /// The most detections in one frame.
    package static let maximumPerFrame = 10_000
    /// The largest magnitude of a coordinate or size, in pixels.
    package static let maximumCoordinate = 1_000_000.0

    /// The format's bounds and column names, for ``MOTTextReader``.
    static let format = MOTTextReader.Format(
        columnNames: ["frame", "id", "x", "y", "width", "height", "score"],
        columns: 7...MOTTextReader.standardColumnCount, shape: "frame,-1,x,y,w,h,score[,…]",
        maximumFileSize: maximumFileSize, maximumRows: maximumRows, maximumFrame: maximumFrame,
        maximumCoordinate: maximumCoordinate)

    /// The detections of frames 1 up to the largest frame given (`frames[0]` is frame 1), in file order.
    package let frames: [[TrackerDetection]]
    /// How many detections the file holds.
    package let rowCount: Int
    /// The furthest right and bottom edges of all boxes (0 for an empty file).
    package let extent: (maxX: Double, maxY: Double)

    /// Reads and checks the file at `path`.
    package init(path: String) throws(MOTTextError) {
        try self.init(bytes: MOTTextReader.readFile(atPath: path, format: Self.format), path: path)
    }

    /// Parses the contents of a detection file; `path` names it in errors.
    package init(bytes: [UInt8], path: String) throws(MOTTextError) {
        var reader = try MOTTextReader(bytes: bytes, path: path, format: Self.format)
        var frames: [[TrackerDetection]] = []
        var rows = 0, maxX = 0.0, maxY = 0.0
        while let row = try reader.nextRow() {
            let detection = try Self.detection(row, reader)
            try Self.readExtraColumns(row, reader)
            let frame = row.frame
            if frame > frames.count { frames.append(contentsOf: repeatElement([], count: frame - frames.count)) }
            guard frames[frame - 1].count < Self.maximumPerFrame else {
                throw reader.error(
                    line: row.line, "more than \(Self.maximumPerFrame) detections in frame \(frame): keep the best")
            }
            frames[frame - 1].append(detection)
            rows += 1
            maxX = max(maxX, detection.box.maxX)
            maxY = max(maxY, detection.box.maxY)
        }
        self.frames = frames
        rowCount = rows
        extent = (maxX, maxY)
    }

    /// The detection of a row: its id must be -1, its box must have a positive width and height, and its score
    /// must fit a `Float`.
    private static func detection(
        _ row: MOTTextReader.Row, _ reader: MOTTextReader
    ) throws(MOTTextError) -> TrackerDetection {
        guard row.values[1] == -1 else {
            throw reader.error(
                line: row.line, "\(format.name(ofColumn: 2)) is \(row.texts[1]): write -1 (a detection has no id)")
        }
        guard row.values[4] > 0, row.values[5] > 0 else {
            throw reader.error(
                line: row.line,
                "the box is \(row.texts[4])x\(row.texts[5]): its width and height must be positive")
        }
        let score = Float(row.values[6])
        guard score.isFinite else {
            throw reader.error(
                line: row.line,
                "\(format.name(ofColumn: 7)) is \(row.texts[6]): write a number within ±\(Float.greatestFiniteMagnitude)"
            )
        }
        let box = BoundingBox(x: row.values[2], y: row.values[3], width: row.values[4], height: row.values[5])
        return TrackerDetection(box: box, score: score)
    }

    // MARK: - Columns after the tenth

    /// The hook for the columns after MOTChallenge's ten (``MOTTextReader/Row/extraValues``), such as appearance
    /// vectors. None is read yet: ``format`` allows at most 10 columns, so a row never has any here. A reader of
    /// extra columns raises that bound and reads them here, with `reader.error(line:_:)` for its refusals.
    private static func readExtraColumns(_ row: MOTTextReader.Row, _ reader: MOTTextReader) throws(MOTTextError) {
        assert(row.extraValues.isEmpty)
    }
}
