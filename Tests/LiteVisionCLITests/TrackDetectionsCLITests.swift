import Foundation
import LiteVisionTestSupport
import Testing

/// `litevision track --detections`: the tracker on another detector's boxes, from a MOTChallenge detection file.
@Suite("litevision track --detections")
struct TrackDetectionsCLITests {
    /// Two people crossing on a 640x480 view for 60 frames: A walks right at depth 1 (near, in front), B walks left
    /// behind, hidden by A for a few frames around the crossing (missed, then weakly detected). Frames 58...60 have
    /// no row at all, frame 61 only one for A (so the file has 61 frames). Rows are shuffled. Returns the rows and,
    /// for each row, which person it is (0 A, 1 B).
    static func crossing() -> (rows: [String], people: [(frame: Int, person: Int, x: Double)]) {
        var rows: [(String, Int, Int, Double)] = []
        for frame in 1...57 {
            let t = Double(frame - 1)
            let ax = 40 + 8 * t, bx = 520 - 8 * t
            rows.append(("\(frame),-1,\(ax),200,60,150,0.9,-1,-1,-1", frame, 0, ax))
            let overlap = abs(ax - bx) < 50
            if abs(ax - bx) < 20 { continue }  // B is hidden: no detection
            let score = overlap ? "0.3" : "0.85"  // partly hidden: a weak score
            rows.append(("\(frame), -1, \(bx), 190, 54, 135, \(score), -1, -1, -1\r", frame, 1, bx))
        }
        rows.append(("61,-1,520,200,60,150,0.9", 61, 0, 520))
        var generator = SystemRandomNumberGenerator()
        rows.shuffle(using: &generator)
        return (rows.map(\.0), rows.map { ($0.1, $0.2, $0.3) })
    }

    @Test("IDs stay with each person through a crossing; --mot rows and one --json record per frame")
    func crossingKeepsIDs() throws {
        let folder = TestData.temporaryDirectory("cli-track-detections")
        defer { try? FileManager.default.removeItem(at: folder) }
        let (rows, people) = Self.crossing()
        let detections = folder.appendingPathComponent("det.txt")
        try (rows.joined(separator: "\n") + "\n\n").write(to: detections, atomically: true, encoding: .utf8)
        let mot = folder.appendingPathComponent("out.txt").path
        let json = folder.appendingPathComponent("out.jsonl").path
        let result = try LiteVisionExecutable.run([
            "track", "--detections", detections.path, "--image-size", "640x480", "--frame-rate", "30",
            "--mot", mot, "--json", json, "--timing",
        ])
        #expect(result.status == 0, "\(result.errors)")
        #expect(result.output.isEmpty)
        #expect(result.errors.contains("tracker: 61 frames in"), "\(result.errors)")

        // Each output row is one input box (the detection's box is reported): find its person by frame and x.
        var idsOfPerson: [Int: Set<Int>] = [:]
        let outRows = try String(contentsOfFile: mot, encoding: .utf8).split(separator: "\n").map {
            $0.split(separator: ",").map(String.init)
        }
        for row in outRows {
            #expect(row.count == 10 && row[7...] == ["-1", "-1", "-1"])
            let frame = try #require(Int(row[0])), id = try #require(Int(row[1])), x = try #require(Double(row[2]))
            let person = try #require(people.first { $0.frame == frame && abs($0.x - x) < 0.01 }, "row \(row)")
            idsOfPerson[person.person, default: []].insert(id)
        }
        // A: every row reported (confident) with one ID, frame 61 too (after 3 frames without rows, in view).
        #expect(outRows.filter { $0[1] == "\(idsOfPerson[0]?.first ?? -1)" }.count == 58)
        #expect(idsOfPerson[0]?.count == 1, "A's IDs: \(idsOfPerson[0] ?? [])")
        #expect(idsOfPerson[1]?.count == 1, "B's IDs: \(idsOfPerson[1] ?? [])")
        #expect(idsOfPerson[0] != idsOfPerson[1])

        // --json: frames 0...60 (as for a video), the timestamp from --frame-rate, no latency.
        let records = try String(contentsOfFile: json, encoding: .utf8).split(separator: "\n").map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
        #expect(records.count == 61)
        #expect(records.map { $0["frame"] as? Int } == (0...60).map { $0 })
        #expect(records[30]["timestamp"] as? Double == 1.0)
        #expect(records[0]["source"] as? String == detections.path)
        #expect(records.allSatisfy { $0["latencyMs"] == nil })
        #expect((records[58]["objects"] as? [Any])?.isEmpty == true)
        let object = try #require((records[0]["objects"] as? [[String: Any]])?.first)
        #expect(Set(object.keys) == ["frame", "trackingID", "detectionConfidence"])
        let box = try #require(object["frame"] as? [String: Double])
        #expect(Set(box.keys) == ["x", "y", "width", "height"])
    }

    @Test("Without outputs, a line per frame; without --image-size, the file's boxes give the frame size")
    func linesAndInferredSize() throws {
        let folder = TestData.temporaryDirectory("cli-track-detections-lines")
        defer { try? FileManager.default.removeItem(at: folder) }
        let detections = folder.appendingPathComponent("det.txt")
        try "1,-1,10,20,30,40,0.9\n3,-1,12,21,30,40,0.9\n".write(to: detections, atomically: true, encoding: .utf8)
        let result = try LiteVisionExecutable.run(["track", "--detections", detections.path, "--timing"])
        #expect(result.status == 0, "\(result.errors)")
        #expect(result.output == "frame 0: #0 (10,20 30x40)\nframe 1: -\nframe 2: #0 (12,21 30x40)\n")
        #expect(result.errors.contains("2 detections, 42x61"), "\(result.errors)")
    }

    @Test("Scores above 1 are warned of: the thresholds are for scores from 0 to 1")
    func scoresAboveOne() throws {
        let folder = TestData.temporaryDirectory("cli-track-detections-scale")
        defer { try? FileManager.default.removeItem(at: folder) }
        let detections = folder.appendingPathComponent("det.txt")
        try "1,-1,10,20,30,40,92\n2,-1,12,21,30,40,35\n".write(to: detections, atomically: true, encoding: .utf8)
        let scaled = try LiteVisionExecutable.run(["track", "--detections", detections.path])
        #expect(scaled.status == 0, "\(scaled.errors)")
        #expect(
            scaled.errors.contains("scores go up to 92.0, while the tracker's thresholds are for"), "\(scaled.errors)")
        #expect(scaled.output == "frame 0: #0 (10,20 30x40)\nframe 1: #0 (12,21 30x40)\n", "\(scaled.output)")
        try "1,-1,10,20,30,40,0.92\n".write(to: detections, atomically: true, encoding: .utf8)
        let usual = try LiteVisionExecutable.run(["track", "--detections", detections.path])
        #expect(usual.status == 0 && usual.errors.isEmpty, "\(usual.errors)")
    }

    @Test("Scores of 0 or less keep objects alive and are warned of; huge ones are written, not a crash")
    func unscoredAndHugeScores() throws {
        let folder = TestData.temporaryDirectory("cli-track-detections-unscored")
        defer { try? FileManager.default.removeItem(at: folder) }
        let detections = folder.appendingPathComponent("det.txt"), mot = folder.appendingPathComponent("out.txt")
        try "1,-1,10,20,30,40,0.9\n2,-1,11,20,30,40,0.9\n3,-1,12,21,30,40,0\n4,-1,13,21,30,40,-1e20\n"
            .write(to: detections, atomically: true, encoding: .utf8)
        let kept = try LiteVisionExecutable.run(
            ["track", "--detections", detections.path, "--image-size", "640x480", "--mot", mot.path])
        #expect(kept.status == 0, "\(kept.errors)")
        #expect(kept.errors.contains("2 rows score 0 or less, and keep objects alive"), "\(kept.errors)")
        let rows = try String(contentsOf: mot, encoding: .utf8).split(separator: "\n")
        #expect(rows.count == 4 && rows[2].hasPrefix("3,0,12.00,21.00,30.00,40.00,0.0000,"), "\(rows)")
        #expect(rows.count == 4 && rows[3].hasPrefix("4,0,13.00,21.00,30.00,40.00,-1e+20,"), "\(rows)")
        // With --threshold (as an object detector), they are no detections and nothing is warned of.
        let detector = try LiteVisionExecutable.run(
            ["track", "--detections", detections.path, "--threshold", "0.5", "--mot", mot.path])
        #expect(detector.status == 0 && !detector.errors.contains("score 0 or less"), "\(detector.errors)")
        #expect(try String(contentsOf: mot, encoding: .utf8).split(separator: "\n").count == 2)
    }

    @Test("Boxes wholly outside the frame are warned of: a wrong --image-size or other coordinates")
    func boxesOutsideTheFrame() throws {
        let folder = TestData.temporaryDirectory("cli-track-detections-outside")
        defer { try? FileManager.default.removeItem(at: folder) }
        let detections = folder.appendingPathComponent("det.txt")
        try "1,-1,10,20,30,40,0.9\n2,-1,700,21,30,40,0.9\n3,-1,-50,21,30,40,0.9\n"
            .write(to: detections, atomically: true, encoding: .utf8)
        let sized = try LiteVisionExecutable.run(["track", "--detections", detections.path, "--image-size", "640x480"])
        #expect(sized.status == 0, "\(sized.errors)")
        #expect(
            sized.errors.contains("2 of 3 boxes lie outside the 640x480 frame (the first in frame 2)"),
            "\(sized.errors)")
        #expect(sized.output == "frame 0: #0 (10,20 30x40)\nframe 1: -\nframe 2: -\n", "\(sized.output)")
        // Without --image-size the frame reaches the furthest edges: only the box left of the origin is outside.
        let unsized = try LiteVisionExecutable.run(["track", "--detections", detections.path])
        #expect(unsized.status == 0, "\(unsized.errors)")
        #expect(unsized.errors.contains("1 of 3 boxes lie outside the 730x61 frame (the first in frame 3)"))
        let inside = try LiteVisionExecutable.run(["track", "--detections", detections.path, "--image-size", "800x100"])
        #expect(inside.status == 0 && inside.errors.contains("1 of 3 boxes"), "\(inside.errors)")
        try "1,-1,10,20,30,40,0.9\n2,-1,630,21,30,40,0.9\n".write(to: detections, atomically: true, encoding: .utf8)
        let partly = try LiteVisionExecutable.run(["track", "--detections", detections.path, "--image-size", "640x480"])
        #expect(partly.status == 0 && partly.errors.isEmpty, "\(partly.errors)")
        // Coordinates normalized to the frame's size lie inside it, but are no pixels.
        try "1,-1,0.10,0.20,0.05,0.30,0.9\n2,-1,0.11,0.20,0.05,0.30,0.9\n".write(
            to: detections, atomically: true, encoding: .utf8)
        let normalized = try LiteVisionExecutable.run(
            ["track", "--detections", detections.path, "--image-size", "640x480"])
        #expect(normalized.status == 0, "\(normalized.errors)")
        #expect(normalized.errors.contains("every box lies within 0-1 in the 640x480 frame"), "\(normalized.errors)")
    }

    @Test("--frame-rate under 20 reaches the tracker: a middling box off an object's prediction keeps its ID")
    func lowFrameRate() throws {
        let folder = TestData.temporaryDirectory("cli-track-detections-rate")
        defer { try? FileManager.default.removeItem(at: folder) }
        let detections = folder.appendingPathComponent("det.txt")
        // Standing still, then a middling box 18 px off (IoU 0.38: under the weak gate, above the confident one).
        let rows =
            "1,-1,100,100,40,100,0.9\n2,-1,100,100,40,100,0.9\n3,-1,100,100,40,100,0.9\n4,-1,118,100,40,100,0.5\n"
        try rows.write(to: detections, atomically: true, encoding: .utf8)
        let slow = try LiteVisionExecutable.run(["track", "--detections", detections.path, "--frame-rate", "8"])
        #expect(slow.status == 0, "\(slow.errors)")
        #expect(slow.output.hasSuffix("frame 3: #0 (118,100 40x100)\n"), "\(slow.output)")
        let usual = try LiteVisionExecutable.run(["track", "--detections", detections.path, "--frame-rate", "25"])
        #expect(usual.status == 0, "\(usual.errors)")
        #expect(usual.output.hasSuffix("frame 2: #0 (100,100 40x100)\nframe 3: -\n"), "\(usual.output)")
    }

    @Test(
        "A malformed row is refused with its line number and status 2; no output is written",
        arguments: [
            (
                "1,-1,10,10,20,20,0.9\n1,-1,10,10,20,20\n",
                "2: 6 columns, expected 7 to 10: frame,-1,x,y,w,h,score[,…]"
            ),
            ("1,-1,10,10,nan,20,0.9\n", "1: column 5 (width) is nan: write a finite number"),
            ("1,-1,10,10,20,20,inf\n", "1: column 7 (score) is inf: write a finite number"),
            ("\n\n0,-1,10,10,20,20,0.9\n", "3: column 1 (frame) is 0: write a whole number from 1 to 1000000"),
            ("1.5,-1,10,10,20,20,0.9\n", "1: column 1 (frame) is 1.5: write a whole number from 1 to 1000000"),
            ("1,-1,10,10,-3,20,0.9\n", "1: the box is -3x20: its width and height must be positive"),
            ("1,-1,ten,10,20,20,0.9\n", "1: column 3 (x) is not a number: 'ten'"),
            ("2000000,-1,10,10,20,20,0.9\n", "1: column 1 (frame) is 2000000: write a whole number from 1 to 1000000"),
            ("1,-1,1e9,10,20,20,0.9\n", "1: column 3 (x) is 1e9: write a number from -1000000 to 1000000 (pixels)"),
            (
                "1,-1,10,10,20,20,0.9,-1,-1,-1,7\n",
                "1: 11 columns, expected 7 to 10: frame,-1,x,y,w,h,score[,…] (columns after the tenth are read as an "
                    + "appearance vector with --reidentify, as DeepSORT's files carry them; without it, keep the first "
                    + "ten)"
            ),
            ("1,-1,10,10,20,20,0.9\n1,-1,\u{FF}0,10,20,20,0.9\n", "2: column 3 (x) is not a number: '\u{FF}0'"),
        ])
    func malformed(text: String, message: String) throws {
        let folder = TestData.temporaryDirectory("cli-track-detections-bad")
        defer { try? FileManager.default.removeItem(at: folder) }
        let detections = folder.appendingPathComponent("det.txt")
        try text.write(to: detections, atomically: true, encoding: .utf8)
        let mot = folder.appendingPathComponent("out.txt").path
        let result = try LiteVisionExecutable.run(["track", "--detections", detections.path, "--mot", mot])
        #expect(result.status == 2)
        #expect(result.errors == "litevision: \(detections.path):\(message)\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["det.txt"])
    }

    /// `det.txt` in `folder`: 6,000 frames of 100 boxes, seconds of reading and tracking. Its first row scores 2, so
    /// that the command warns of it once the file is read, before tracking.
    static func writeLongDetections(in folder: URL) throws -> URL {
        var text = "1,-1,0,0,40,40,2\n"
        for frame in 1...6000 {
            for box in 0..<100 { text += "\(frame),-1,\(box % 10 * 60 + frame % 7),\(box / 10 * 45),40,40,0.9\n" }
        }
        let detections = folder.appendingPathComponent("det.txt")
        try text.write(to: detections, atomically: true, encoding: .utf8)
        return detections
    }

    @Test(
        "An output whose folder is turned into the input's (a link re-pointed) while tracking is refused, not written",
        arguments: [false, true])
    func outputFolderReplacedWhileTracking(withMOT: Bool) throws {
        let folder = TestData.temporaryDirectory("cli-track-detections-relink")
        defer { try? FileManager.default.removeItem(at: folder) }
        let detections = try Self.writeLongDetections(in: folder)
        let before = try Data(contentsOf: detections)
        let elsewhere = folder.appendingPathComponent("elsewhere"), link = folder.appendingPathComponent("out")
        let motFolder = folder.appendingPathComponent("mot")
        for made in [elsewhere, motFolder] {
            try FileManager.default.createDirectory(at: made, withIntermediateDirectories: false)
        }
        try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: elsewhere.path)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: LiteVisionExecutable.path)
        // out/det.txt is elsewhere/det.txt when the run starts, and the input itself once the link is re-pointed.
        process.arguments =
            ["track", "--detections", detections.path, "--json", link.path + "/det.txt"]
            + (withMOT ? ["--mot", motFolder.appendingPathComponent("out.txt").path] : [])
        let errors = Pipe()
        process.standardOutput = FileHandle.nullDevice
        process.standardError = errors
        try process.run()
        // The warning of the score above 1 comes once the file is read, before tracking: then the link is re-pointed.
        var message = ""
        while !message.contains("scores go up to") {
            let chunk = errors.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            message += String(decoding: chunk, as: UTF8.self)
        }
        try FileManager.default.removeItem(at: link)
        try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: folder.path)
        message += String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 1)
        #expect(message.contains("an output never replaces an input"), "\(message)")
        #expect(try Data(contentsOf: detections) == before)
        // No output is written, and no temporary file is left.
        for made in [elsewhere, motFolder] {
            #expect(try FileManager.default.contentsOfDirectory(atPath: made.path) == [])
        }
    }

    @Test("A run killed while it reads and tracks leaves no temporary file beside its outputs")
    func signalLeavesNoTemporaryFile() throws {
        let folder = TestData.temporaryDirectory("cli-track-detections-signal")
        defer { try? FileManager.default.removeItem(at: folder) }
        let detections = try Self.writeLongDetections(in: folder)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: LiteVisionExecutable.path)
        process.arguments = [
            "track", "--detections", detections.path, "--mot", folder.appendingPathComponent("out.txt").path,
            "--json", folder.appendingPathComponent("out.json").path,
        ]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        usleep(500_000)
        // SIGKILL, which no handler sees, stands for every signal (and the test process's children start with
        // SIGTERM and SIGINT blocked, as libdispatch blocks them for its signal sources).
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        #expect(process.terminationReason == .uncaughtSignal, "the run ended before the signal: make the file longer")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["det.txt"])
    }

    @Test("Bytes that are not UTF-8, a missing file and a folder are refused with status 2")
    func unreadable() throws {
        let folder = TestData.temporaryDirectory("cli-track-detections-unreadable")
        defer { try? FileManager.default.removeItem(at: folder) }
        let binary = folder.appendingPathComponent("det.bin")
        try Data([0x31, 0x2C, 0xFF, 0xFE, 0x0A]).write(to: binary)
        let cases = [
            (binary.path, "\(binary.path):1: the line is not UTF-8 text: save the file as UTF-8"),
            (folder.appendingPathComponent("none.txt").path, "no such file"),
            (folder.path, "directory"),
        ]
        for (path, message) in cases {
            let result = try LiteVisionExecutable.run(["track", "--detections", path])
            #expect(result.status == 2, "\(path)")
            #expect(result.errors.contains(message), "\(result.errors)")
        }
    }

    @Test("Video and model options, sources, and bad sizes or rates do not go with --detections")
    func argumentRules() throws {
        let badRate = "--frame-rate must be a number of frames per second from 0.001 up to 1000"
        let cases: [([String], String)] = [
            (["det.txt", "video.mp4"], "give it without video sources"),
            (["det.txt", "--annotate", "out.mp4"], "--annotate does not go with --detections"),
            (["det.txt", "--serve", "8080"], "--serve does not go with --detections"),
            (["det.txt", "--classify"], "--classify does not go with --detections"),
            // Named as given, not as what they imply (--model turns classification on).
            (["det.txt", "--model", "m.tflite"], "--model does not go with --detections"),
            (["det.txt", "--model-dir", "/tmp"], "--model-dir does not go with --detections"),
            (["det.txt", "--threads", "2"], "--threads does not go with --detections"),
            (["det.txt", "--preprocessing", "exact"], "--preprocessing does not go with --detections"),
            (["det.txt", "--inference-timeout", "3"], "--inference-timeout does not go with --detections"),
            (["det.txt", "--rtsp-transport", "tcp"], "--rtsp-transport does not go with --detections"),
            (["det.txt", "--stall-timeout", "10"], "--stall-timeout does not go with --detections"),
            (["det.txt", "--registry", "http://127.0.0.1:1"], "--registry does not go with --detections"),
            (["det.txt", "--request-timeout", "5"], "--request-timeout does not go with --detections"),
            (["det.txt", "--image-size", "0x480"], "--image-size must be WIDTHxHEIGHT"),
            (["det.txt", "--frame-rate", "0"], badRate),
            (["det.txt", "--frame-rate", "nan"], badRate),
            // A smaller rate made the JSON records' timestamps overflow, and the records were written as {}.
            (["det.txt", "--frame-rate", "1e-303"], badRate),
        ]
        for (arguments, message) in cases {
            let result = try LiteVisionExecutable.run(["track", "--detections"] + arguments)
            #expect(result.status == 64, "\(arguments)")
            #expect(result.errors.contains(message), "\(arguments): \(result.errors)")
        }
        let video = try LiteVisionExecutable.run(["track", "--timing", "video.mp4"])
        #expect(video.status == 64)
        #expect(
            video.errors.contains("--timing goes with --detections (a video is tracked as its frames come)"))
        let filledVideo = try LiteVisionExecutable.run(["track", "--interpolate", "20", "video.mp4"])
        #expect(filledVideo.status == 64)
        #expect(filledVideo.errors.contains("--interpolate goes with --detections"), "\(filledVideo.errors)")
        let videoRate = try LiteVisionExecutable.run(["track", "--frame-rate", "0", "video.mp4"])
        #expect(videoRate.status == 64)
        #expect(videoRate.errors.contains(badRate), "\(videoRate.errors)")
    }

    @Test("TrackEval: on a small seeded simulated scene, HOTA and IDF1 at least ByteTrack's and BoT-SORT's")
    func qualityAgainstPeers() throws {
        // The floor is the two peers built on ByteTrack's low-score recovery; the benchmark
        // (docs/tracking-quality.md) compares with all four on more scenes.
        let scores = try TrackingBenchmark.compare(sequence: "sim-short", seed: 7)
        let ours = try #require(scores["LiteVision"])
        #expect(Set(scores.keys) == ["LiteVision", "SORT", "ByteTrack", "OC-SORT", "BoT-SORT"])
        let ourHOTA = try #require(ours["HOTA"]), ourIDF1 = try #require(ours["IDF1"])
        for peer in ["ByteTrack", "BoT-SORT"] {
            let theirs = try #require(scores[peer])
            let theirHOTA = try #require(theirs["HOTA"]), theirIDF1 = try #require(theirs["IDF1"])
            #expect(ourHOTA >= theirHOTA, "\(peer): \(scores)")
            #expect(ourIDF1 >= theirIDF1, "\(peer): \(scores)")
        }
    }

    @Test("--interpolate fills an object's gaps up to its limit with boxes on its path; TrackEval scores it higher")
    func interpolation() throws {
        let folder = TestData.temporaryDirectory("cli-track-detections-interpolate")
        defer { try? FileManager.default.removeItem(at: folder) }
        // One walker detected in frames 1, 2 and 6 (missed in 3-5), growing from 100 to 110 px high.
        let detections = folder.appendingPathComponent("det.txt")
        try Data(
            "1,-1,10,10,50,100,0.9,-1,-1,-1\n2,-1,12,10,50,100,0.9,-1,-1,-1\n6,-1,22,10,50,110,0.8,-1,-1,-1\n".utf8
        ).write(to: detections)
        let mot = folder.appendingPathComponent("out.txt").path
        func track(_ gap: String) throws -> [String] {
            let result = try LiteVisionExecutable.run([
                "track", "--detections", detections.path, "--interpolate", gap, "--mot", mot,
            ])
            #expect(result.status == 0, "\(result.errors)")
            return try String(contentsOfFile: mot, encoding: .utf8).split(separator: "\n").map(String.init)
        }
        // The gap's boxes on the line from frame 2's to frame 6's, with the last detection's score (coasting).
        #expect(
            try track("3") == [
                "1,0,10.00,10.00,50.00,100.00,0.9000,-1,-1,-1", "2,0,12.00,10.00,50.00,100.00,0.9000,-1,-1,-1",
                "3,0,14.50,10.00,50.00,102.50,0.9000,-1,-1,-1", "4,0,17.00,10.00,50.00,105.00,0.9000,-1,-1,-1",
                "5,0,19.50,10.00,50.00,107.50,0.9000,-1,-1,-1", "6,0,22.00,10.00,50.00,110.00,0.8000,-1,-1,-1",
            ])
        #expect(try track("2").map { $0.prefix(2) } == ["1,", "2,", "6,"], "a gap of 3 frames is over 2")
        for gap in ["0", "1001"] {
            let refused = try LiteVisionExecutable.run(["track", "--detections", detections.path, "--interpolate", gap])
            #expect(refused.status == 64)
            #expect(refused.errors.contains("--interpolate takes the longest gap to fill, 1 to 1000 frames"))
        }
        // On a seeded simulated scene, filling the hidden and missed frames finds more of every person, under the
        // same IDs.
        let scores = try TrackingBenchmark.compare(
            sequence: "sim-short", seed: 7, variants: ["interpolated=--interpolate 20"])
        let plain = try #require(scores["LiteVision"]), filled = try #require(scores["interpolated"])
        for (metric, gain) in [("HOTA", 3.0), ("IDF1", 2.0), ("MOTA", 3.0)] {
            let before = try #require(plain[metric]), after = try #require(filled[metric])
            #expect(after >= before + gain, "\(metric): \(before) -> \(after)")
        }
        let switches = try #require(filled["IDSW"]), plainSwitches = try #require(plain["IDSW"])
        #expect(switches <= plainSwitches, "filling adds boxes, never IDs: \(scores)")
    }

    @Test("TrackEval: two people crossing at one depth get their IDs back when the tracks came out swapped")
    func crossingGivesIDsBack() throws {
        // The benchmark's worst draw before its nineteenth round (docs/tracking-quality.md): `sim-stop-turn` scene 17,
        // noise 18. Two pairs walk through each other, and the tracks of each pair came out on each other's person
        // (HOTA 63.0 and IDF1 75.3 against SORT's 71.1 and 89.3); the IDs are now given back as they part.
        try TrackingBenchmark.expectAtLeastEveryPeer(sequence: "sim-stop-turn", seed: 18, sceneSeed: 17)
    }

    @Test("TrackEval: two people crossing get their IDs back where the exchange fits their old paces only roughly")
    func crossingWithChangeOfPace() throws {
        // `TUD-Stadtmitte` heavy noise draw 26 (docs/tracking-quality.md, twenty-sixth round): the tracks of persons 2
        // and 7 meet at frame 51 and come out swapped (frames 60-64); where they part, at frame 70, they lie 0.77 box
        // widths (the root of the two squared distances summed) from where each would be at the other's old pace, past
        // the bound before the round (0.75): HOTA 50.4 and IDF1 73.6 then, against BoT-SORT's 51.8 and 77.9.
        try TrackingBenchmark.expectAtLeastEveryPeer(sequence: "TUD-Stadtmitte", seed: 26, level: "heavy")
    }

    @Test("TrackEval: among three people walking through one another, the tracks keep their walkers' paces")
    func paceThroughJitteredBoxes() throws {
        // `TUD-Stadtmitte` heavy noise draw 71 (docs/tracking-quality.md, twenty-seventh round): persons 2, 8 and 9
        // overlap around frames 84-100, and person 7 passes person 9 from frame 73. With the measurement noise the
        // box filter had before the round (1/20 of the box size, as its position noise), the tracks' velocities
        // followed the boxes' jitter: person 2's ID went to person 8 at frame 96, person 7's to person 9 at frame 73,
        // HOTA 49.7 and IDF1 68.4 against BoT-SORT's 53.0 and 79.1. With 7/100 persons 2, 7, 8 and 9 keep their IDs.
        try TrackingBenchmark.expectAtLeastEveryPeer(sequence: "TUD-Stadtmitte", seed: 71, level: "heavy")
    }

    @Test("TrackEval: a track of two boxes leaves a box to the established track that fits it about as well")
    func youngTrackYields() throws {
        // `TUD-Campus` under the noise model S, draw 4 (docs/tracking-quality.md, twenty-ninth round): at frame 50 a
        // new track's second box lay 23 px from its first, a speed its object did not have, and at frame 51 its
        // prediction fitted person 5's box a little better than person 5's own track (IoU 0.81 against 0.76). At full
        // weight it took the box, and the two tracks went on with each other's people: HOTA 61.4 and IDF1 77.3 against
        // BoT-SORT's 63.5 and 84.9. At 0.7 of the weight person 5 keeps their ID: 66.5 and 88.5, no ID switch.
        try TrackingBenchmark.expectAtLeastEveryPeer(sequence: "TUD-Campus", seed: 4, level: "S")
    }

    @Test("TrackEval: at least every peer under the two noise models no rule was tuned on", arguments: ["V", "W"])
    func unseenNoiseModels(model: String) throws {
        // `TUD-Campus` draw 2 under `tracking_scenes.UNSEEN_NOISE_MODELS` (docs/tracking-quality.md, after the
        // thirty-first round), written after every rule was chosen: V hides a box by any overlap and adds duplicate
        // boxes (HOTA 6.4 and IDF1 10.5 over the best peer), W jitters each person by an offset that drifts over the
        // frames (6.1 and 12.7 over it).
        try TrackingBenchmark.expectAtLeastEveryPeer(sequence: "TUD-Campus", seed: 2, level: model)
    }

    @Test("TrackEval: at least every peer on a generic scene whose detector scores some real boxes under 0.1")
    func boxesOfAnyScoreKeepObjects() throws {
        // `gen-boxes` scene 2, noise draw 2 of `tracking_generic.py` (docs/tracking-quality.md, thirty-seventh round):
        // one real box in eighty scores 0.05-0.1. Ignored under a rescue threshold of 0.1, each cost a box that the
        // peers' trackers kept (HOTA 71.9 against SORT's 72.0); kept now: HOTA 72.8 and IDF1 90.6 against 72.0 and
        // 90.0.
        try TrackingBenchmark.expectAtLeastEveryPeer(sequence: "gen-boxes", seed: 2, sceneSeed: 2, level: "Gn")
    }

    @Test("TrackEval: at least every peer on a generic scene where boxes vanish and others appear in their paths")
    func vanishedObjectsLeaveTheirIDs() throws {
        // `gen-flat` scene 2, noise draw 2 of `tracking_generic.py` (docs/tracking-quality.md, thirty-eighth round): a
        // box vanished in the open at frame 121 and 26 frames later another appeared on its coasting prediction and
        // took its ID (HOTA 75.8 and IDF1 92.3 against SORT's 76.8 and 95.2). Dropped after 15 frames unseen in the
        // open, it leaves the new box a new ID: 77.5 and 95.6.
        try TrackingBenchmark.expectAtLeastEveryPeer(sequence: "gen-flat", seed: 2, sceneSeed: 2, level: "Gn")
    }

    @Test("--frame-rate scales how long an object missed in plain view keeps its ID: 15 frames at 30 fps, 8 at 15")
    func openBufferFollowsTheFrameRate() throws {
        let folder = TestData.temporaryDirectory("cli-track-detections-open")
        defer { try? FileManager.default.removeItem(at: folder) }
        // Standing in the open in frames 1-10, missed for `gap` frames, back at the same spot for 3.
        func ids(gap: Int, frameRate: String) throws -> Set<String> {
            let frames = Array(1...10) + Array((11 + gap)...(13 + gap))
            let detections = folder.appendingPathComponent("det-\(gap).txt")
            try frames.map { "\($0),-1,300,200,40,80,0.9\n" }.joined()
                .write(to: detections, atomically: true, encoding: .utf8)
            let result = try LiteVisionExecutable.run([
                "track", "--detections", detections.path, "--image-size", "640x480", "--frame-rate", frameRate,
            ])
            #expect(result.status == 0, "\(result.errors)")
            return Set(
                result.output.split(separator: "\n").compactMap {
                    $0.split(separator: "#").dropFirst().first?.prefix(1)
                }.map(String.init))
        }
        #expect(try ids(gap: 8, frameRate: "15") == ["0"])
        #expect(try ids(gap: 9, frameRate: "15") == ["0", "1"])
        #expect(try ids(gap: 9, frameRate: "30") == ["0"])
        #expect(try ids(gap: 15, frameRate: "30") == ["0"])
        #expect(try ids(gap: 16, frameRate: "30") == ["0", "1"])
    }

    @Test("TrackEval: a track lost for 8 frames leaves a followed person's box to them, whatever its depth")
    func longLostTrackYields() throws {
        // `TUD-Stadtmitte` normal noise draw 1 (docs/tracking-quality.md, thirty-first round): at frame 96 a track last
        // detected in frame 87, its prediction 2 px too low to count as behind person 2, fitted person 2's box a little
        // better (IoU 0.76 against 0.70) and took it: 4 ID switches against SORT's 3. It now ranks second: 2.
        let scores = try TrackingBenchmark.compare(sequence: "TUD-Stadtmitte", seed: 1)
        let ours = try #require(scores["LiteVision"]?["IDSW"]), sort = try #require(scores["SORT"]?["IDSW"])
        #expect(ours < sort, "\(scores)")
    }

    @Test("TrackEval: at 15 fps, a weak box that could start nothing bends a track's path less")
    func doubtfulBoxesAtLowFrameRate() throws {
        // `sim-stop-turn` at half its 30 fps, normal noise draw 4 (twenty-ninth round): measured with 1.5 times the
        // usual deviation, weak boxes under the tentative threshold move the tracks less; HOTA 70.2 and IDF1 87.8,
        // against 68.5 and 86.0 measured as usual and ByteTrack's 69.0 and 86.7.
        try TrackingBenchmark.expectAtLeastEveryPeer(sequence: "sim-stop-turn", seed: 4, frameStep: 2)
    }
}
