import Foundation
import LiteVisionTestSupport
import Testing

/// What the path-safety suites share (issue 9, paths): running `litevision` killed after a timeout, with an
/// optional file size limit; snapshots of files that a refused run must leave as they were; the refusal check;
/// a folder with a video and a photo to name as inputs.
enum PathSafety {
    static let models = ["--model-dir", TestData.path("models")]

    /// What a finished (or killed) run left.
    struct Run {
        var status: Int32
        var output: String
        var errors: String
        var seconds: Double
        var timedOut: Bool
    }

    /// Runs `litevision` with `arguments` in `directory`, killed after `timeout` seconds (a run that blocks on a
    /// FIFO must fail the test, not hang it). Standard output and error go to files, so a child that writes much
    /// never blocks on a full pipe. With `fileSizeLimit` (in the shell's `ulimit -f` blocks) no file the child
    /// writes may grow past it: a write beyond fails (EFBIG, SIGXFSZ ignored), as on a full disk.
    static func run(
        _ arguments: [String], in directory: URL? = nil, timeout: Double = 60, fileSizeLimit: Int? = nil,
        environment: [String: String] = [:]
    ) throws -> Run {
        let scratch = TestData.temporaryDirectory("path-safety-run")
        defer { try? FileManager.default.removeItem(at: scratch) }
        let outURL = scratch.appendingPathComponent("out"), errURL = scratch.appendingPathComponent("err")
        FileManager.default.createFile(atPath: outURL.path, contents: nil)
        FileManager.default.createFile(atPath: errURL.path, contents: nil)
        let process = Process()
        if let fileSizeLimit {
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments =
                ["-c", "trap '' XFSZ; ulimit -f \(fileSizeLimit); exec \"$0\" \"$@\"", LiteVisionExecutable.path]
                + arguments
        } else {
            process.executableURL = URL(fileURLWithPath: LiteVisionExecutable.path)
            process.arguments = arguments
        }
        if let directory { process.currentDirectoryURL = directory }
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        }
        process.standardOutput = try FileHandle(forWritingTo: outURL)
        process.standardError = try FileHandle(forWritingTo: errURL)
        process.standardInput = FileHandle.nullDevice
        let started = Date()
        try process.run()
        while process.isRunning && Date().timeIntervalSince(started) < timeout { usleep(10_000) }
        let timedOut = process.isRunning
        if timedOut { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        let seconds = Date().timeIntervalSince(started)
        return Run(
            status: process.terminationStatus,
            output: (try? String(contentsOf: outURL, encoding: .utf8)) ?? "",
            errors: (try? String(contentsOf: errURL, encoding: .utf8)) ?? "", seconds: seconds, timedOut: timedOut)
    }

    /// The device, inode, type and size of `path` (not following a final symbolic link), and its bytes when it
    /// is a regular file: what must be the same after a refused run.
    struct Snapshot: Equatable {
        var device: UInt64
        var inode: UInt64
        var type: UInt32
        var deviceNumber: UInt64
        var bytes: Data?

        init(_ path: String) throws {
            var info = stat()
            try #require(lstat(path, &info) == 0, "\(path) is missing")
            device = UInt64(info.st_dev)
            inode = UInt64(info.st_ino)
            type = UInt32(info.st_mode & S_IFMT)
            deviceNumber = UInt64(info.st_rdev)
            bytes = type == UInt32(S_IFREG) ? try Data(contentsOf: URL(fileURLWithPath: path)) : nil
        }
    }

    /// A run that must end within a second (a refusal, before any work): run again once when it took longer, as the
    /// other tests running meanwhile on two cores can delay a process start; a run that waits does so both times.
    static func runPromptly(
        _ arguments: [String], in directory: URL? = nil, environment: [String: String] = [:]
    ) throws -> Run {
        let first = try run(arguments, in: directory, timeout: 20, environment: environment)
        if first.timedOut || first.seconds < 1 { return first }
        return try run(arguments, in: directory, timeout: 20, environment: environment)
    }

    /// A refusal: status 2, within a second, a message naming `option` and containing `reason`, nothing on standard
    /// output, and every path of `untouched` as it was before.
    static func expectRefusal(
        _ arguments: [String], option: String, reason: String, untouched: [String] = [], in directory: URL? = nil,
        environment: [String: String] = [:], sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let before = try untouched.map(Snapshot.init)
        let result = try runPromptly(arguments, in: directory, environment: environment)
        #expect(result.status == 2, "\(arguments): \(result.errors)", sourceLocation: sourceLocation)
        #expect(
            result.errors.contains("(\(option))") && result.errors.contains(reason),
            "\(arguments): \(result.errors)", sourceLocation: sourceLocation)
        #expect(result.seconds < 1, "\(arguments) took \(result.seconds) s", sourceLocation: sourceLocation)
        #expect(result.output.isEmpty, "\(result.output)", sourceLocation: sourceLocation)
        #expect(try untouched.map(Snapshot.init) == before, "\(arguments)", sourceLocation: sourceLocation)
    }

    /// A folder with a copy of cup.mp4 and of a photo, as `clip.mp4` and `photo.png` (a PNG, so that it can be
    /// named as a drawing).
    static func fixtures() throws -> (folder: URL, video: String, photo: String) {
        let folder = TestData.temporaryDirectory("path-safety")
        let video = folder.appendingPathComponent("clip.mp4").path
        try FileManager.default.copyItem(atPath: TestData.path("video/cup.mp4"), toPath: video)
        let photo = folder.appendingPathComponent("photo.png").path
        let drawn = try run(["detect", "--annotate", photo] + models + [TestData.image("burger.jpg")])
        try #require(drawn.status == 0, "\(drawn.errors)")
        return (folder, video, photo)
    }

    /// The names in `folder` that start with a dot: temporary files left behind.
    static func hiddenNames(in folder: URL) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).filter { $0.hasPrefix(".") }
    }
}
