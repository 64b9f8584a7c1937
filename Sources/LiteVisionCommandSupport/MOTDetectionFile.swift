import LiteVisionSystem
import LiteVisionTracking

/// A MOTChallenge detection file, as `litevision track --detections` reads it: one detection per line,
/// `frame,-1,x,y,w,h,score[,…]` — the frame from 1, the id (not read: -1 in detection files, where a detection
/// belongs to no track yet), the box's left, top, width and height in pixels, the detector's score, and up to three
/// more numbers that are not read (MOT's `-1,-1,-1`). Read for re-identification (`appearance`), the columns after
/// the tenth are the detection's appearance vector, as DeepSORT's detection files carry them
/// (`MOTDetectionFile+Appearance.swift`).
///
/// The text, its bounds and its numbers are ``MOTTextReader``'s (the same reader as `litevision eval track`'s files):
/// lines may end in CRLF or CR, columns may have spaces around them or be separated by spaces alone, blank lines are
/// skipped, and a malformed line is refused with its line number and what to write instead. This layer adds the
/// detections' own rules: the box has a positive width and height, a frame holds at most ``maximumPerFrame``
/// detections, and the columns after the tenth are an appearance vector (with `appearance`; refused without). Rows may
/// come in any order: they are grouped by frame, and the frames are 1 up to the largest frame given, so that
/// frames without detections still count.
package struct MOTDetectionFile: Sendable {
    /// The largest file read: 256 MiB (long lines carry appearance vectors).
    package static let maximumFileSize = 256 << 20
    /// The most rows: 2 million, some 70 MB of plain rows, far more than a MOTChallenge sequence's detections. Every
    /// row is held in memory, and so is the output written once tracking ends (the rows, the JSON records): at 10
    /// million rows that peaked at 3.8 GB.
    package static let maximumRows = 2_000_000
    /// The largest frame number: a million frames, over nine hours at 30 fps. Frames without detections are
    /// tracked too, so this bounds the work.
    package static let maximumFrame = 1_000_000
    /// The most detections in one frame, as in `eval track`'s files: each frame's association is an assignment
    /// whose time can grow with the cube of that count (10,000 boxes a frame took 55 seconds for two frames; a
    /// detector gives a few hundred at most).
    package static let maximumPerFrame = 1_000
    /// The largest magnitude of a coordinate or size, in pixels.
    package static let maximumCoordinate = 1_000_000.0

    /// The format's bounds and column names, for ``MOTTextReader``: 7 to 10 columns, or with appearance vectors
    /// (`appearance`) up to ``maximumAppearanceLength`` more and lines of up to ``maximumAppearanceLineLength`` bytes.
    static func format(appearance: Bool) -> MOTTextReader.Format {
        var format = MOTTextReader.Format(
            columnNames: ["frame", "id", "x", "y", "width", "height", "score"],
            columns: 7...(MOTTextReader.standardColumnCount + (appearance ? maximumAppearanceLength : 0)),
            shape: appearance ? "frame,-1,x,y,w,h,score,-1,-1,-1[,f1,f2,…]" : "frame,-1,x,y,w,h,score[,…]",
            maximumFileSize: maximumFileSize, maximumLineLength: appearance ? maximumAppearanceLineLength : 4096,
            maximumRows: maximumRows, maximumFrame: maximumFrame, maximumCoordinate: maximumCoordinate)
        if !appearance {
            format.extraColumnsHint =
                "columns after the tenth are read as an appearance vector with --reidentify, as DeepSORT's files carry"
                + " them; without it, keep the first ten"
        }
        return format
    }

    /// The detections of frames 1 up to the largest frame given (`frames[0]` is frame 1), in file order.
    package let frames: [[TrackerDetection]]
    /// How many detections the file holds.
    package let rowCount: Int
    /// The furthest right and bottom edges of all boxes (0 for an empty file).
    package let extent: (maxX: Double, maxY: Double)

    /// Reads and checks the file at `path`; with `appearance`, the columns after the tenth are the appearance vector.
    package init(path: String, appearance: Bool = false) throws(MOTTextError) {
        try self.init(
            bytes: MOTTextReader.readFile(atPath: path, format: Self.format(appearance: appearance)), path: path,
            appearance: appearance)
    }

    /// Parses the contents of a detection file; `path` names it in errors. With `appearance`, the columns after the
    /// tenth are the appearance vector.
    package init(bytes: [UInt8], path: String, appearance: Bool = false) throws(MOTTextError) {
        var reader = try MOTTextReader(bytes: bytes, path: path, format: Self.format(appearance: appearance))
        var frames: [[TrackerDetection]] = []
        var rows = 0, maxX = 0.0, maxY = 0.0
        var vectors = AppearanceColumns()
        while let row = try reader.nextRow() {
            var detection = try Self.detection(row, reader)
            detection.appearance = try vectors.vector(of: row, reader)
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

    /// The detection of a row: its box must have a positive width and height, and its score must fit a `Float`.
    /// The id is not read (a tracker's output read back as detections keeps its ids there).
    private static func detection(
        _ row: MOTTextReader.Row, _ reader: MOTTextReader
    ) throws(MOTTextError) -> TrackerDetection {
        guard row.values[4] > 0, row.values[5] > 0 else {
            throw reader.error(
                line: row.line,
                "the box is \(row.texts[4])x\(row.texts[5]): its width and height must be positive")
        }
        let score = Float(row.values[6])
        guard score.isFinite else {
            throw reader.error(
                line: row.line,
                "\(reader.format.name(ofColumn: 7)) is \(row.texts[6]): write a number within ±\(Float.greatestFiniteMagnitude)"
            )
        }
        let box = BoundingBox(x: row.values[2], y: row.values[3], width: row.values[4], height: row.values[5])
        return TrackerDetection(box: box, score: score)
    }
}
