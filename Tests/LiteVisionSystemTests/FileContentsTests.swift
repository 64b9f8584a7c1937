import Foundation
import LiteVisionSystem
import LiteVisionTestSupport
import Testing

@Suite("Whole-file reading")
struct FileContentsTests {
    @Test("A shared model is read whole, byte for byte")
    func readsWholeFile() throws {
        let path = TestData.model("bird.tflite")
        let bytes = try FileContents.read(atPath: path)
        #expect(bytes == [UInt8](try Data(contentsOf: URL(fileURLWithPath: path))))
        #expect(try FileContents.requireRegularFile(atPath: path) == bytes.count)
    }

    @Test("Missing files, folders, empty paths and oversized files are refused with the reason")
    func refusals() throws {
        let folder = TestData.temporaryDirectory("file-contents")
        defer { try? FileManager.default.removeItem(at: folder) }
        let missing = folder.appendingPathComponent("missing").path
        #expect(throws: SystemError(.read, path: missing, reason: "no such file", code: ENOENT)) {
            try FileContents.read(atPath: missing)
        }
        #expect(throws: SystemError(.read, path: folder.path, reason: "it is a directory")) {
            try FileContents.read(atPath: folder.path)
        }
        #expect(throws: SystemError(.read, path: "", reason: "the path is empty")) {
            try FileContents.read(atPath: "")
        }
        let big = folder.appendingPathComponent("big").path
        try Data(count: 100).write(to: URL(fileURLWithPath: big))
        #expect(throws: SystemError(.read, path: big, reason: "the file is larger than the 99-byte limit")) {
            try FileContents.read(atPath: big, maximumSize: 99)
        }
        #expect(try FileContents.read(atPath: big, maximumSize: 100).count == 100)
    }

    @Test("A FIFO is refused at once instead of blocking until a writer comes")
    func fifo() throws {
        let folder = TestData.temporaryDirectory("file-contents")
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("pipe").path
        #expect(mkfifo(path, 0o600) == 0)
        let started = Date()
        #expect(throws: SystemError(.read, path: path, reason: "it is a FIFO (named pipe), not a regular file")) {
            try FileContents.read(atPath: path)
        }
        #expect(throws: SystemError.self) { try FileContents.requireRegularFile(atPath: path) }
        #expect(Date().timeIntervalSince(started) < 5)
    }

    @Test("Error texts read inside a sentence")
    func errorText() {
        #expect(errorDescription(ENOENT) == "no such file")
        #expect(errorDescription(EACCES) == "permission denied")
        #expect(String(nulTerminated: [CChar(65), 66, 0, 67]) == "AB")
        #expect(String(nulTerminated: [CChar(65), 66]) == "AB")
        #expect(SystemError(.write, path: "/x", reason: "disk full").description == "Cannot write /x: disk full.")
    }
}
