import LiteVisionSystem
import LiteVisionTracking

/// A MOTChallenge detection file, as `litevision track --detections` reads it: one detection per line,
/// `frame,id,x,y,w,h,score[,…]` — the frame from 1, an id that is ignored (-1 in detection files), the box's left,
/// top, width and height in pixels, the detector's score, and up to three more fields that are ignored (MOT's
/// `-1,-1,-1`).
///
/// Every byte is hostile: the file is bounded (``maximumFileSize``, ``maximumRows``, ``maximumFrame``,
/// ``maximumPerFrame``) before anything is allocated for it, and a malformed line — too few or too many fields,
/// a field that is not a number, a frame that is not a whole number from 1, a box with a width or height that is
/// not positive, a NaN or infinite value, a coordinate past ±``maximumCoordinate`` — is refused with its line
/// number. Lines may end in CRLF, fields may have spaces around them, and empty lines are skipped. Rows may come in
/// any order: they are grouped by frame, and the frames are 1 up to the largest frame given, so that frames without
/// detections still count.
///
/// Read for re-identification (`appearance`), the fields after the tenth are the detection's appearance vector, as
/// DeepSORT's detection files carry them (see `MOTDetectionFile+Appearance.swift`).
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

    /// The detections of frames 1 up to the largest frame given (`frames[0]` is frame 1), in file order.
    package let frames: [[TrackerDetection]]
    /// How many detections the file holds.
    package let rowCount: Int
    /// The furthest right and bottom edges of all boxes (0 for an empty file).
    package let extent: (maxX: Double, maxY: Double)

    /// Reads and checks the file at `path`; with `appearance`, the fields after the tenth are the appearance vector.
    package init(path: String, appearance: Bool = false) throws(MOTDetectionFileError) {
        let bytes: [UInt8]
        do {
            bytes = try FileContents.read(atPath: path, maximumSize: Self.maximumFileSize)
        } catch {
            throw MOTDetectionFileError(path: path, line: nil, problem: error.reason)
        }
        try self.init(bytes: bytes, path: path, appearance: appearance)
    }

    /// Parses the contents of a detection file; `path` names it in errors. With `appearance`, the fields after the
    /// tenth are the appearance vector.
    package init(bytes: [UInt8], path: String, appearance: Bool = false) throws(MOTDetectionFileError) {
        guard bytes.count <= Self.maximumFileSize else {
            throw MOTDetectionFileError(
                path: path, line: nil, problem: "it is larger than \(Self.maximumFileSize >> 20) MiB")
        }
        var frames: [[TrackerDetection]] = []
        var rows = 0, line = 0, maxX = 0.0, maxY = 0.0
        var start = 0
        var vectors = AppearanceColumns()
        while start < bytes.count {
            line += 1
            var end = start
            while end < bytes.count && bytes[end] != UInt8(ascii: "\n") { end += 1 }
            defer { start = end + 1 }
            guard let parsed = try Self.parse(bytes[start..<end], path: path, line: line, appearance: appearance)
            else { continue }
            let (frame, detection) = parsed
            if appearance { try vectors.check(detection, path: path, line: line) }
            rows += 1
            guard rows <= Self.maximumRows else {
                throw MOTDetectionFileError(path: path, line: line, problem: "more than \(Self.maximumRows) rows")
            }
            if frame > frames.count { frames.append(contentsOf: repeatElement([], count: frame - frames.count)) }
            guard frames[frame - 1].count < Self.maximumPerFrame else {
                throw MOTDetectionFileError(
                    path: path, line: line, problem: "more than \(Self.maximumPerFrame) detections in frame \(frame)")
            }
            frames[frame - 1].append(detection)
            maxX = max(maxX, detection.box.maxX)
            maxY = max(maxY, detection.box.maxY)
        }
        self.frames = frames
        rowCount = rows
        extent = (maxX, maxY)
    }

    /// One line: nil for an empty one, else the frame and the detection.
    private static func parse(
        _ raw: ArraySlice<UInt8>, path: String, line: Int, appearance: Bool
    ) throws(MOTDetectionFileError) -> (Int, TrackerDetection)? {
        func fail(_ problem: String) -> MOTDetectionFileError {
            MOTDetectionFileError(path: path, line: line, problem: problem)
        }
        let longest = appearance ? maximumAppearanceLineLength : 4096
        guard raw.count <= longest else { throw fail("the line is longer than \(longest) bytes") }
        guard let text = String(validating: raw, as: UTF8.self) else { throw fail("the line is not UTF-8 text") }
        let trimmed = Substring(text).trimmingWhitespace
        if trimmed.isEmpty { return nil }
        let fields = trimmed.split(separator: ",", omittingEmptySubsequences: false).map(\.trimmingWhitespace)
        guard (7...10).contains(fields.count) || (appearance && fields.count > 10) else {
            throw fail(
                "\(fields.count) field\(fields.count == 1 ? "" : "s"), expected 7 to 10: frame,id,x,y,w,h,score[,…]")
        }
        let names = ["frame", "id", "x", "y", "width", "height", "score"]
        var values: [Double] = []
        for (index, name) in names.enumerated() {
            let field = fields[index]
            // Swift's Double("nan") and Double("inf") parse: refused by the finiteness check below.
            guard let value = Double(field) else {
                throw fail("the \(name) '\(field.prefix(40))' is not a number")
            }
            guard value.isFinite else { throw fail("the \(name) is \(field): it must be a finite number") }
            values.append(value)
        }
        let frameValue = values[0]
        guard frameValue == frameValue.rounded(), frameValue >= 1 else {
            throw fail("the frame \(fields[0]) is not a whole number from 1")
        }
        guard frameValue <= Double(maximumFrame) else {
            throw fail("the frame \(fields[0]) is past the last frame allowed, \(maximumFrame)")
        }
        for index in 2...5 where abs(values[index]) > maximumCoordinate {
            throw fail("the \(names[index]) \(fields[index]) is beyond ±\(Int(maximumCoordinate)) pixels")
        }
        guard values[4] > 0, values[5] > 0 else {
            throw fail("the box is \(fields[4])x\(fields[5]): its width and height must be positive")
        }
        let box = BoundingBox(x: values[2], y: values[3], width: values[4], height: values[5])
        let vector = fields.count > 10 ? try appearanceVector(fields[10...], path: path, line: line) : nil
        return (Int(frameValue), TrackerDetection(box: box, score: Float(values[6]), appearance: vector))
    }
}

/// Why a MOTChallenge detection file was refused: the file, the line (from 1) when one line is at fault, and what
/// is wrong.
package struct MOTDetectionFileError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file, as given.
    package var path: String
    /// The line at fault, from 1; nil when the whole file is.
    package var line: Int?
    /// What is wrong, in words that fit after a colon.
    package var problem: String

    package var description: String {
        "\(path)\(line.map { ", line \($0)" } ?? ""): \(problem)"
    }
}

extension Substring {
    /// The text without spaces and tabs (and a CR) at either end.
    fileprivate var trimmingWhitespace: Substring {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\r" }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else {
            return Substring()
        }
        return self[first...last]
    }
}
