import Foundation
import LiteVision
import LiteVisionImaging
import LiteVisionTestSupport
import Testing

/// Damaged photos and videos (issue 9): strict decoding by default, lenient on request; a damaged video is
/// processed up to the damage and fails; a video with huge frames is refused before they are allocated.
@Suite("Damaged photos and videos")
struct DamagedInputTests {
    static let models = ["--model-dir", TestData.path("models")]
    static let bird = TestData.model("bird.tflite")

    /// A fresh folder for one test's files, deleted afterwards by the caller.
    static func folder(_ label: String) -> URL { TestData.temporaryDirectory(label) }

    /// Where the damaged photos go (a temporary folder, one per test process).
    static let photos = TestData.temporaryDirectory("damaged-photos")

    /// bird.jpg damaged as `damage` says, written for the test `user` (so that tests running at once never
    /// write the same file).
    static func damagedBird(_ damage: DamagedFiles.JPEGDamage, for user: String) throws -> String {
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: TestData.image("bird.jpg"))))
        let damaged = try #require(DamagedFiles.jpeg(bytes, damage))
        let path = photos.appendingPathComponent("\(user)-bird-\(damage).jpg").path
        try Data(damaged).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// Whether decoding is refused for damage in the image data (strict) rather than anything else.
    static func refusedAsDamaged(_ error: VisionError) -> Bool {
        guard case .imageDecoding(let decoding) = error else { return false }
        switch decoding {
        case .corrupt, .truncated: return true
        default: return false
        }
    }

    // MARK: library

    @Test(
        "the labeler refuses a damaged JPEG unless the options allow damaged data",
        arguments: DamagedFiles.JPEGDamage.allCases)
    func labelerOptions(_ damage: DamagedFiles.JPEGDamage) throws {
        let path = try Self.damagedBird(damage, for: "library")
        let options = CustomImageLabelerOptions(localModel: LocalModel(path: Self.bird))
        #expect(options.processing.allowsDamagedImageData == false)
        let strict = try ImageLabeler(options: options)
        #expect {
            try strict.results(in: try VisionImage(contentsOfFile: path))
        } throws: { error in
            (error as? VisionError).map(Self.refusedAsDamaged) ?? false
        }
        #expect(throws: VisionError.self) { try VisionImage(contentsOfFile: path).decoded() }

        options.processing.allowsDamagedImageData = true
        let lenient = try ImageLabeler(options: options)
        if damage == .secondFrameHeader {
            // Fatal to libjpeg-turbo (a second frame header), not a warning: refused either way.
            #expect(throws: VisionError.self) { try lenient.results(in: try VisionImage(contentsOfFile: path)) }
        } else {
            let labels = try lenient.results(in: try VisionImage(contentsOfFile: path))
            #expect(!labels.isEmpty)
            let decoded = try VisionImage(contentsOfFile: path).decoded(allowsDamagedImageData: true)
            #expect(decoded.uprightSize?.width == 2000)
        }
    }

    // MARK: command line

    @Test(
        "label and detect: a damaged photo fails with its reason; --lenient-decoding decodes it",
        arguments: DamagedFiles.JPEGDamage.allCases)
    func labelAndDetect(_ damage: DamagedFiles.JPEGDamage) throws {
        let path = try Self.damagedBird(damage, for: "cli")
        let commands = [
            ["label", "--model", Self.bird, path],
            ["label", "--json", "--model", Self.bird, path],
            ["detect"] + Self.models + [path],
        ]
        for command in commands {
            let strict = try CLITests.run(command)
            #expect(strict.status == 1, "\(command): \(strict.errors)")
            #expect(strict.errors.contains(path), "\(strict.errors)")
            let kind = damage == .truncated ? "Truncated image" : "Corrupt image"
            #expect(strict.errors.contains(kind) && strict.errors.contains("libjpeg-turbo"), "\(strict.errors)")

            let lenient = try CLITests.run(command + ["--lenient-decoding"])
            if damage == .secondFrameHeader {
                #expect(lenient.status == 1 && lenient.errors.contains("two SOF markers"), "\(lenient.errors)")
            } else {
                #expect(lenient.status == 0, "\(command) --lenient-decoding: \(lenient.errors)")
                #expect(!lenient.output.isEmpty)
            }
        }
    }

    @Test("label: a PNG whose IDAT has a wrong CRC fails")
    func pngCRC() throws {
        let folder = Self.folder("damaged-png")
        defer { try? FileManager.default.removeItem(at: folder) }
        var png = try PNGEncoder.encode(try ImageDecoder().decodeFile(atPath: TestData.image("bird.jpg")).image)
        // PNGEncoder writes IHDR, one or more IDAT chunks, IEND: the byte before IEND ends the last IDAT's CRC.
        png[png.count - 13] ^= 0xFF
        let path = folder.appendingPathComponent("bird.png").path
        try Data(png).write(to: URL(fileURLWithPath: path))
        for flags in [[], ["--lenient-decoding"]] {
            let result = try CLITests.run(["label", "--model", Self.bird, path] + flags)
            #expect(result.status == 1 && result.errors.contains("IDAT: CRC error"), "\(result.errors)")
        }
    }

    @Test(
        "track on a video cut at 60%: the frames before the cut are written, the status is 1, the message says where",
        arguments: [("vtest.avi", 485), ("cup.mp4", 118)])
    func truncatedVideo(_ name: String, frames: Int) throws {
        let folder = Self.folder("damaged-track")
        defer { try? FileManager.default.removeItem(at: folder) }
        let cut = try DamagedFiles.truncatedCopy(of: TestData.path("video/\(name)"), fraction: 0.6, in: folder)
        let mot = folder.appendingPathComponent("out.txt").path
        let json = folder.appendingPathComponent("out.jsonl").path
        let result = try CLITests.run(
            ["track", "--multiple", "--threshold", "0.3", "--json", json, "--mot", mot] + Self.models + [cut])
        #expect(result.status == 1, "\(result.errors)")
        #expect(
            result.errors.contains(cut) && result.errors.contains("stopped after \(frames) good frames"),
            "\(result.errors)")
        #expect(result.errors.contains("\(frames) frames before it were processed and written"), "\(result.errors)")
        let lines = try String(contentsOfFile: json, encoding: .utf8).split(separator: "\n")
        #expect(lines.count == frames)
        for (index, line) in lines.enumerated() {
            let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            #expect(object?["frame"] as? Int == index)
        }
        let rows = try String(contentsOfFile: mot, encoding: .utf8).split(separator: "\n")
        #expect(!rows.isEmpty)
        #expect(rows.allSatisfy { (Int($0.prefix { $0 != "," }) ?? 0) <= frames })
    }

    @Test("track on the uncut vtest.avi exits 0")
    func intactVideo() throws {
        let folder = Self.folder("intact-track")
        defer { try? FileManager.default.removeItem(at: folder) }
        let json = folder.appendingPathComponent("out.jsonl").path
        let result = try CLITests.run(["track", "--json", json] + Self.models + [TestData.path("video/vtest.avi")])
        #expect(result.status == 0, "\(result.errors)")
        #expect(try String(contentsOfFile: json, encoding: .utf8).split(separator: "\n").count == 795)
    }

    @Test("track refuses a video declaring 16000x16000 frames, in bounded memory")
    func hugeFrames() throws {
        let folder = Self.folder("huge-track")
        defer { try? FileManager.default.removeItem(at: folder) }
        let grey = ImageBuffer(
            width: 16, height: 16, format: .rgb8, pixels: [UInt8](repeating: 128, count: 16 * 16 * 3))
        let jpeg = try JPEGEncoder.encode(grey, quality: 80)
        let avi = try #require(DamagedFiles.mjpegAVI(greyJPEG: jpeg, width: 16000, height: 16000, frames: 2))
        let path = folder.appendingPathComponent("huge.avi").path
        try Data(avi).write(to: URL(fileURLWithPath: path))
        let run = try Self.measuringPeakMemory([CLITests.executable, "track"] + Self.models + [path])
        #expect(run.status == 2, "\(run.errors)")
        #expect(run.errors.contains("16000x16000") && run.errors.contains("100000000"), "\(run.errors)")
        #expect(run.peakMegabytes < 1000, "peak memory \(run.peakMegabytes) MB")
    }

    /// Runs a program under a small python3 parent, whose `getrusage(RUSAGE_CHILDREN)` then holds the program's
    /// peak resident memory alone (that of a child started straight from the test process would count the
    /// memory they shared before `exec`). Returns its status, its standard error and its peak in MB.
    static func measuringPeakMemory(
        _ arguments: [String]
    ) throws -> (status: Int32, errors: String, peakMegabytes: Double) {
        let script = """
            import resource, subprocess, sys
            done = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
            print(done.returncode, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
            sys.stdout.write(done.stderr.decode("utf-8", "replace"))
            """
        let parent = try CLITests.run(["python3", "-c", script] + arguments, program: "/usr/bin/env")
        let firstLine = parent.output.prefix { $0 != "\n" }
        let fields = firstLine.split(separator: " ")
        let status = try #require(fields.count == 2 ? Int32(fields[0]) : nil, "\(parent)")
        let kilobytes = try #require(Double(fields[1]), "\(parent)")
        return (status, String(parent.output.dropFirst(firstLine.count + 1)), kilobytes / 1024)
    }
}
