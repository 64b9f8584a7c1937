import Foundation
import LiteVisionEvaluation
import LiteVisionTestSupport
import Testing

/// `eval track`'s layer over the MOTChallenge text reader: the id rule, the columns it keeps, and its errors.
@Suite("MOTFile")
struct MOTFileTests {
    static func parse(_ text: String) throws(EvaluationError) -> MOTFile {
        try MOTFile(bytes: Array(text.utf8), path: "gt.txt")
    }

    static func failure(_ text: String) -> EvaluationError? {
        do throws(EvaluationError) {
            _ = try parse(text)
            return nil
        } catch {
            return error
        }
    }

    @Test("Rows keep frame, id, box, the consider flag and the class; 6 to 64 columns, commas or spaces")
    func rows() throws {
        let file = try Self.parse(
            "1,0,10,20,30,40\n\n2,7,1,2,3,4,0,7,0.5,-1\r\n3 1099511627776 -5 -6 0 -2 4.7e40 1e30\n"
                + "4,2,1,2,3,4,1,1,1,-1,9,9,9\n")
        #expect(file.rows.map(\.frame) == [1, 2, 3, 4])
        #expect(file.rows.map(\.id) == [0, 7, 1 << 40, 2])
        #expect(file.rows.map(\.line) == [1, 3, 4, 5])
        #expect(file.rows[0].flag == nil && file.rows[0].objectClass == nil)
        #expect(file.rows[1].flag == 0 && file.rows[1].objectClass == 7)
        // A huge flag or class, and a negative size, are values here (TrackEval reads them); the metrics decide.
        #expect(file.rows[2].flag == 4.7e40 && file.rows[2].objectClass == 1e30)
        #expect(file.rows[2].box.width == 0 && file.rows[2].box.height == -2)
    }

    @Test(
        "The id is a whole number from 0; the reader's errors come with the file and line",
        arguments: [
            ("1,-1,10,20,30,40\n", "gt.txt:1: column 2 (id) is -1: write a whole number from 0 to 1099511627776"),
            ("1,2.5,10,20,30,40\n", "gt.txt:1: column 2 (id) is 2.5: write a whole number from 0 to 1099511627776"),
            ("1,1e40,10,20,30,40\n", "gt.txt:1: column 2 (id) is 1e40: write a whole number from 0 to 1099511627776"),
            (
                "1,1099511627777,10,20,30,40\n",
                "gt.txt:1: column 2 (id) is 1099511627777: write a whole number from 0 to 1099511627776"
            ),
            ("\n1,1,10,20,30\n", "gt.txt:2: 5 columns, expected 6 to 64: frame,id,x,y,w,h[,conf,class,visibility,…]"),
            ("1,1,10,20,30,40,nan\n", "gt.txt:1: column 7 (conf) is nan: write a finite number"),
            ("1,1,10,20,30,40,1,inf\n", "gt.txt:1: column 8 (class) is inf: write a finite number"),
            ("1e40,1,10,20,30,40\n", "gt.txt:1: column 1 (frame) is 1e40: write a whole number from 1 to 100000000"),
            (
                "1,1,10,20,1e40,40\n",
                "gt.txt:1: column 5 (width) is 1e40: write a number from -1000000 to 1000000 (pixels)"
            ),
        ])
    func refused(text: String, message: String) {
        #expect(Self.failure(text)?.description == message)
    }

    @Test("A missing file and a directory are refused with the file's name")
    func files() throws {
        let folder = TestData.temporaryDirectory("mot-file")
        defer { try? FileManager.default.removeItem(at: folder) }
        let missing = folder.appendingPathComponent("none.txt").path
        #expect(throws: EvaluationError(file: missing, reason: "no such file")) {
            try MOTFile(contentsOfFile: missing)
        }
        #expect(throws: EvaluationError(file: folder.path, reason: "it is a directory")) {
            try MOTFile(contentsOfFile: folder.path)
        }
        let good = folder.appendingPathComponent("gt.txt")
        try Data("\u{FEFF}1,1,10,20,30,40,1,1,1\r\n".utf8).write(to: good)
        #expect(try MOTFile(contentsOfFile: good.path).rows.count == 1)
    }
}
