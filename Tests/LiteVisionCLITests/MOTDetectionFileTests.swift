import Foundation
import LiteVision
import LiteVisionCommandSupport
import LiteVisionSystem
import LiteVisionTestSupport
import Testing

/// `track --detections`' layer over the MOTChallenge text reader, in process: the id, box, score and per-frame
/// rules, and the frames it makes.
@Suite("MOTDetectionFile")
struct MOTDetectionFileTests {
    static func parse(_ text: String) throws(MOTTextError) -> MOTDetectionFile {
        try MOTDetectionFile(bytes: Array(text.utf8), path: "det.txt")
    }

    static func failure(_ text: String) -> String? {
        do throws(MOTTextError) {
            _ = try parse(text)
            return nil
        } catch {
            return error.description
        }
    }

    @Test("Rows in any order are grouped by frame, frames without rows kept; the extent of the boxes")
    func frames() throws {
        let file = try Self.parse("3,-1,10,20,30,40,0.5\n\n1,-1,-5,0,10,10,0.9,-1,-1,-1\r\n3 -1 0 0 1 1 2.5\n")
        #expect(file.frames.count == 3)
        #expect(file.frames.map(\.count) == [1, 0, 2])
        #expect(file.rowCount == 3)
        #expect(file.frames[2].map(\.score) == [0.5, 2.5])
        #expect(file.frames[0][0].box == BoundingBox(x: -5, y: 0, width: 10, height: 10))
        #expect(file.extent.maxX == 40 && file.extent.maxY == 60)
        #expect(try Self.parse("").frames.isEmpty)
    }

    @Test(
        "The box positive, the score a Float; each refusal names the line",
        arguments: [
            ("1,-1,10,20,0,40,0.9\n", "det.txt:1: the box is 0x40: its width and height must be positive"),
            ("1,-1,10,20,30,-1e-9,0.9\n", "det.txt:1: the box is 30x-1e-9: its width and height must be positive"),
            ("1,-1,10,20,30,40,1e39\n", "det.txt:1: column 7 (score) is 1e39: write a number within ±3.4028235e+38"),
            ("1,-1,10,20,30,40\n", "det.txt:1: 6 columns, expected 7 to 10: frame,-1,x,y,w,h,score[,…]"),
            (
                "1,-1,10,20,30,40,1,2,3,4,5\n",
                "det.txt:1: 11 columns, expected 7 to 10: frame,-1,x,y,w,h,score[,…] (columns after the tenth "
                    + "are read as an appearance vector with --reidentify, as DeepSORT's files carry them; without "
                    + "it, keep the first ten)"
            ),
            (
                "1000001,-1,10,20,30,40,1\n",
                "det.txt:1: column 1 (frame) is 1000001: write a whole number from 1 to 1000000"
            ),
        ])
    func refused(text: String, message: String) {
        #expect(Self.failure(text) == message)
    }

    @Test("The id is not read: -1, a tracker's own ids, 0 all give the same detections")
    func idNotRead() throws {
        let rows = ["1,ID,10,20,30,40,0.9\n2,ID,12,20,30,40,0.8\n"]
        let parsed = try ["-1", "5", "0", "1e40"].map { id throws(MOTTextError) in
            try Self.parse(rows[0].replacingOccurrences(of: "ID", with: id)).frames.map { $0.map(\.box) }
        }
        #expect(parsed.allSatisfy { $0 == parsed[0] })
        #expect(parsed[0].map(\.count) == [1, 1])
        #expect(Self.failure("1,x,10,20,30,40,0.9\n") == "det.txt:1: column 2 (id) is not a number: 'x'")
    }

    @Test("At most 1000 detections in a frame")
    func perFrame() throws {
        let row = "7,-1,10,20,30,40,0.9\n"
        #expect(try Self.parse(String(repeating: row, count: 1_000)).frames[6].count == 1_000)
        #expect(
            Self.failure(String(repeating: row, count: 1_001))
                == "det.txt:1001: more than 1000 detections in frame 7: keep the best")
    }

    @Test("A missing file and a directory are refused, naming them")
    func files() throws {
        let folder = TestData.temporaryDirectory("mot-detections")
        defer { try? FileManager.default.removeItem(at: folder) }
        let missing = folder.appendingPathComponent("none.txt").path
        #expect(throws: MOTTextError(path: missing, problem: "no such file")) { try MOTDetectionFile(path: missing) }
        #expect(throws: MOTTextError(path: folder.path, problem: "it is a directory")) {
            try MOTDetectionFile(path: folder.path)
        }
    }
}
