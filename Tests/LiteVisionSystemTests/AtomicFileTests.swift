import Foundation
import LiteVisionSystem
import LiteVisionTestSupport
import Testing

@Suite("Atomic file writing")
struct AtomicFileTests {
    static func names(in folder: URL) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).sorted()
    }

    @Test("The destination appears only on commit, whole, and no temporary file remains")
    func commit() throws {
        let folder = TestData.temporaryDirectory("atomic")
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("out.json").path
        try Data("old".utf8).write(to: URL(fileURLWithPath: path))
        let file = try AtomicFile(path: path)
        try file.write(Array("new ".utf8))
        try file.write(Array("content".utf8))
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "old")
        #expect(Self.names(in: folder).count == 2)
        #expect(file.temporaryPath.hasPrefix(folder.path + "/.out.json."))
        try file.commit()
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "new content")
        #expect(Self.names(in: folder) == ["out.json"])
    }

    @Test("A destination whose name has the longest length a file name may have is written")
    func longestName() throws {
        let folder = TestData.temporaryDirectory("atomic")
        defer { try? FileManager.default.removeItem(at: folder) }
        // 255 bytes: ASCII, and two-byte characters, one of which the temporary name's cut would split.
        for name in [String(repeating: "n", count: 251) + ".txt", "a" + String(repeating: "é", count: 127)] {
            #expect(name.utf8.count == 255)
            let path = folder.appendingPathComponent(name).path
            let file = try AtomicFile(path: path)
            #expect(URL(fileURLWithPath: file.temporaryPath).lastPathComponent.utf8.count <= 255)
            try file.write(Array("whole".utf8))
            try file.commit()
            #expect(try String(contentsOfFile: path, encoding: .utf8) == "whole")
        }
        #expect(Self.names(in: folder).count == 2)
    }

    @Test("A file dropped without commit leaves the old destination untouched and no temporary file")
    func discard() throws {
        let folder = TestData.temporaryDirectory("atomic")
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("keep.txt").path
        try Data("precious".utf8).write(to: URL(fileURLWithPath: path))
        do {
            let file = try AtomicFile(path: path)
            try file.write(Array("half".utf8))
        }
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "precious")
        #expect(Self.names(in: folder) == ["keep.txt"])
    }

    @Test("Non-regular destinations, empty paths and folders are refused, and stay as they were")
    func refusals() throws {
        let folder = TestData.temporaryDirectory("atomic")
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(throws: SystemError(.write, path: "", reason: "the path is empty")) { try AtomicFile(path: "") }
        #expect(throws: SystemError(.write, path: folder.path + "/", reason: "it names a folder, not a file")) {
            try AtomicFile(path: folder.path + "/")
        }
        #expect(
            throws: SystemError(
                .write, path: folder.path, reason: "it exists and is a directory; refusing to replace it")
        ) {
            try AtomicFile.write([1], to: folder.path)
        }
        let fifo = folder.appendingPathComponent("pipe").path
        #expect(mkfifo(fifo, 0o600) == 0)
        #expect(throws: SystemError.self) { try AtomicFile.write([1], to: fifo) }
        var info = stat()
        #expect(lstat(fifo, &info) == 0 && (info.st_mode & S_IFMT) == S_IFIFO)
        #expect(throws: SystemError.self) { try AtomicFile.write([1], to: "/dev/null") }
        let missingFolder = folder.appendingPathComponent("no/such/folder/file").path
        #expect(throws: SystemError.self) { try AtomicFile.write([1], to: missingFolder) }
        #expect(Self.names(in: folder) == ["pipe"])
    }

    @Test("A file another library writes is committed by name")
    func writtenByName() throws {
        let folder = TestData.temporaryDirectory("atomic")
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("video.mp4").path
        let file = try AtomicFile(path: path, opened: false)
        #expect(file.descriptor == -1)
        #expect(Self.names(in: folder).isEmpty)
        try Data("frames".utf8).write(to: URL(fileURLWithPath: file.temporaryPath))
        try file.commit()
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "frames")
        #expect(Self.names(in: folder) == ["video.mp4"])
    }
}
