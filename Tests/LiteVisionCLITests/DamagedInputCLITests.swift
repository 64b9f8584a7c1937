import Foundation
import LiteVisionImaging
import LiteVisionTestSupport
import LiteVisionVideo
import Testing

/// Damaged photos and videos (issue 9) on the command line: strict decoding by default, lenient with
/// `--lenient-decoding`; a damaged video is processed up to the damage and fails; a video with huge frames is
/// refused before they are allocated (the library's side is LiteVisionTests' `DamagedInputTests`).
@Suite("Damaged photos and videos on the command line")
struct DamagedInputCLITests {
    static let models = ["--model-dir", TestData.path("models")]
    static let bird = TestData.model("bird.tflite")

    /// A fresh folder for one test's files, deleted afterwards by the caller.
    static func folder(_ label: String) -> URL { TestData.temporaryDirectory(label) }

    @Test(
        "label and detect: a damaged photo fails with its reason; --lenient-decoding decodes it",
        arguments: DamagedFiles.JPEGDamage.allCases)
    func labelAndDetect(_ damage: DamagedFiles.JPEGDamage) throws {
        let path = try DamagedFiles.damagedBird(damage, for: "cli")
        let commands = [
            ["label", "--model", Self.bird, path],
            ["label", "--json", "--model", Self.bird, path],
            ["detect"] + Self.models + [path],
        ]
        for command in commands {
            let strict = try LiteVisionExecutable.runMeasuringMemory(command)
            #expect(strict.status == 1, "\(command): \(strict.errors)")
            #expect(strict.peakMegabytes < 1000, "\(command): peak memory \(strict.peakMegabytes) MB")
            #expect(strict.errors.contains(path), "\(strict.errors)")
            let kind = damage == .truncated ? "Truncated image" : "Corrupt image"
            #expect(strict.errors.contains(kind) && strict.errors.contains("libjpeg-turbo"), "\(strict.errors)")

            let lenient = try LiteVisionExecutable.run(command + ["--lenient-decoding"])
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
            let result = try LiteVisionExecutable.runMeasuringMemory(["label", "--model", Self.bird, path] + flags)
            #expect(result.status == 1 && result.errors.contains("IDAT: CRC error"), "\(result.errors)")
            #expect(result.peakMegabytes < 1000, "peak memory \(result.peakMegabytes) MB")
        }
    }

    @Test("label: a palette PNG whose PLTE chunk has a wrong CRC fails; with the CRC right it labels")
    func paletteCRC() throws {
        let folder = Self.folder("damaged-palette")
        defer { try? FileManager.default.removeItem(at: folder) }
        // A 96x64 palette PNG (four colours in stripes), made with Python's zlib: signature, IHDR, PLTE, IDAT, IEND.
        let script = """
            import struct, sys, zlib
            def chunk(kind, data):
                return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
            rows = b"".join(b"\\0" + bytes((x // 24) for x in range(96)) for _ in range(64))
            png = (b"\\x89PNG\\r\\n\\x1a\\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 96, 64, 8, 3, 0, 0, 0))
                   + chunk(b"PLTE", bytes([200, 30, 30, 30, 200, 30, 30, 30, 200, 240, 240, 240]))
                   + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b""))
            open(sys.argv[1], "wb").write(png)
            bad = bytearray(png)
            bad[33 + 8 + 12] ^= 0xFF  # PLTE's CRC: after the signature and IHDR (33 bytes), its head and 12 bytes
            open(sys.argv[2], "wb").write(bad)
            """
        let good = folder.appendingPathComponent("stripes.png").path
        let bad = folder.appendingPathComponent("stripes-bad-plte.png").path
        let made = try LiteVisionExecutable.run(["python3", "-c", script, good, bad], program: "/usr/bin/env")
        try #require(made.status == 0, "\(made.errors)")
        let labeled = try LiteVisionExecutable.run(["label", "--model", Self.bird, good])
        #expect(labeled.status == 0, "\(labeled.errors)")
        for flags in [[], ["--lenient-decoding"]] {
            let result = try LiteVisionExecutable.runMeasuringMemory(["label", "--model", Self.bird, bad] + flags)
            #expect(result.status == 1 && result.errors.contains("PLTE: CRC error"), "\(flags): \(result.errors)")
            #expect(result.errors.contains(bad), "\(result.errors)")
            #expect(result.peakMegabytes < 1000, "peak memory \(result.peakMegabytes) MB")
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
        let drawn = folder.appendingPathComponent("drawn.mp4").path
        let outputs = ["--json", json, "--mot", mot, "--annotate", drawn]
        let result = try LiteVisionExecutable.runMeasuringMemory(
            ["track", "--multiple", "--threshold", "0.3"] + outputs + Self.models + [cut])
        #expect(result.status == 1, "\(result.errors)")
        #expect(result.peakMegabytes < 1000, "peak memory \(result.peakMegabytes) MB")
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
        // The drawn video is complete and playable: every good frame, and no damage of its own.
        let decoder = try VideoDecoder(path: drawn)
        var drawnFrames = 0
        while try decoder.nextFrame() != nil { drawnFrames += 1 }
        #expect(drawnFrames == frames)
    }

    @Test("track on the uncut vtest.avi exits 0")
    func intactVideo() throws {
        let folder = Self.folder("intact-track")
        defer { try? FileManager.default.removeItem(at: folder) }
        let json = folder.appendingPathComponent("out.jsonl").path
        let result = try LiteVisionExecutable.run(
            ["track", "--json", json] + Self.models + [TestData.path("video/vtest.avi")])
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
        let run = try LiteVisionExecutable.runMeasuringMemory(["track"] + Self.models + [path])
        #expect(run.status == 2, "\(run.errors)")
        #expect(run.errors.contains("16000x16000") && run.errors.contains("100000000"), "\(run.errors)")
        #expect(run.peakMegabytes < 1000, "peak memory \(run.peakMegabytes) MB")
    }
}
