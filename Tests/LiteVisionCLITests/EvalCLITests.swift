import Foundation
import LiteVisionCommandSupport
import LiteVisionEvaluation
import LiteVisionImaging
import LiteVisionTestSupport
import Testing

/// `litevision eval`: every number compared with the reference tools run live (pycocotools' COCOeval, TrackEval's
/// HOTA, CLEAR and Identity; `scripts/setup.sh --dev` installs both) on data they and the tests make, and the
/// shared photos and videos through the real models.
@Suite("litevision eval")
struct EvalCLITests {
    static let models = ["--model-dir", TestData.path("models")]
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Fixtures/eval_reference.py").path

    /// Runs the reference script; its one line of JSON.
    static func reference(_ arguments: [String]) throws -> [String: Any] {
        let result = try LiteVisionExecutable.run(["python3", script] + arguments, program: "/usr/bin/env")
        guard result.status == 0 else {
            Issue.record(
                "the reference script failed (pycocotools and trackeval come with scripts/setup.sh --dev): \(result.errors)"
            )
            throw CocoaError(.featureUnsupported)
        }
        return try #require(try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any])
    }

    /// Runs `litevision` with `arguments` (which include --json); its JSON object.
    static func evaluate(_ arguments: [String]) throws -> [String: Any] {
        try evaluateWithErrors(arguments).json
    }

    /// Runs `litevision` with `arguments` (which include --json); its JSON object and its standard error.
    static func evaluateWithErrors(_ arguments: [String]) throws -> (json: [String: Any], errors: String) {
        let result = try LiteVisionExecutable.run(arguments)
        #expect(result.status == 0, "\(arguments): \(result.errors)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any])
        return (json, result.errors)
    }

    /// Every key of `expected` is in `actual` with the same value (numbers within 1e-6, null for null).
    static func expectSame(_ actual: [String: Any], _ expected: [String: Any], _ context: String) {
        for (key, value) in expected {
            switch value {
            case let nested as [String: Any]:
                expectSame(actual[key] as? [String: Any] ?? [:], nested, "\(context).\(key)")
            case is [Any]:
                continue
            case is NSNull:
                #expect(actual[key] is NSNull, "\(context).\(key): \(String(describing: actual[key])) is not null")
            case let number as NSNumber:
                guard let mine = actual[key] as? NSNumber else {
                    Issue.record("\(context).\(key) is missing: expected \(number)")
                    continue
                }
                #expect(abs(mine.doubleValue - number.doubleValue) <= 1e-6, "\(context).\(key): \(mine) vs \(number)")
            default:
                Issue.record("\(context).\(key): unexpected reference value \(value)")
            }
        }
    }

    /// `eval track --json`'s numbers for one sequence, and TrackEval's.
    typealias SequenceScores = (mine: [String: Any], expected: [String: Any])

    /// Writes one sequence's ground-truth and result rows (`frame,id,x,y,w,h`; the columns each file takes after
    /// them are added) to a temporary folder, and returns `eval track --json`'s numbers and TrackEval's for it.
    static func sequenceScores(_ name: String, groundTruth: [String], results: [String]) throws -> SequenceScores {
        let folder = TestData.temporaryDirectory(name)
        defer { try? FileManager.default.removeItem(at: folder) }
        for (part, rows, tail) in [("gt", groundTruth, ",1,1,1"), ("results", results, ",1,-1,-1,-1")] {
            try FileManager.default.createDirectory(
                at: folder.appendingPathComponent(part), withIntermediateDirectories: true)
            try Data(rows.map { $0 + tail + "\n" }.joined().utf8).write(
                to: folder.appendingPathComponent(part + "/s.txt"))
        }
        let expected = try reference(["mot", folder.path + "/gt", folder.path + "/results"])
        let mine = try evaluate([
            "eval", "track", "--json", "--gt-dir", folder.path + "/gt", "--results-dir", folder.path + "/results",
        ])
        return (mine, expected)
    }

    @Test("eval detect equals pycocotools on seeded COCO data", arguments: [1, 2, 3])
    func detectMatchesPycocotools(seed: Int) throws {
        let folder = TestData.temporaryDirectory("eval-coco")
        defer { try? FileManager.default.removeItem(at: folder) }
        let expected = try Self.reference(["coco-make", "\(seed)", folder.path])
        let mine = try Self.evaluate([
            "eval", "detect", "--json", "--annotations", folder.path + "/gt.json", "--results",
            folder.path + "/dets.json",
        ])
        Self.expectSame(mine, expected, "seed \(seed)")
        let categories = try #require(mine["categories"] as? [[String: Any]])
        let expectedCategories = try #require(expected["categories"] as? [[String: Any]])
        #expect(categories.count == expectedCategories.count)
        for (category, reference) in zip(categories, expectedCategories) {
            #expect(category["id"] as? Int == reference["id"] as? Int)
            Self.expectSame(category, reference, "seed \(seed) category \(reference["id"] ?? "")")
        }
        // The kite category has no ground truth: undefined (null), as pycocotools' -1.
        #expect(categories.last?["AP"] is NSNull)
        // The table's per-category columns stay in line with the header, whatever the widths of ids and counts.
        let table = try LiteVisionExecutable.run([
            "eval", "detect", "--annotations", folder.path + "/gt.json", "--results", folder.path + "/dets.json",
        ])
        let lines = table.output.split(separator: "\n").map(String.init).drop { !$0.hasPrefix("category ") }
        #expect(lines.count == categories.count + 1 && Self.alignedRightColumns(Array(lines)), "\(table.output)")
    }

    @Test("eval detect with annotation ids repeated across images evaluates as pycocotools, with a warning")
    func detectRepeatedAnnotationIDs() throws {
        let folder = TestData.temporaryDirectory("eval-coco-ids")
        defer { try? FileManager.default.removeItem(at: folder) }
        // pycocotools looks annotations up by id, so each repeated id stands for its last annotation.
        let expected = try Self.reference(["coco-make", "4", folder.path, "--ids-per-image"])
        let (mine, errors) = try Self.evaluateWithErrors([
            "eval", "detect", "--json", "--annotations", folder.path + "/gt.json", "--results",
            folder.path + "/dets.json",
        ])
        Self.expectSame(mine, expected, "ids per image")
        #expect(errors.contains("annotations repeat an earlier one's id; evaluated as pycocotools does"))
        // Unique ids give other numbers: the repeated ones really were evaluated as their last annotation.
        defer { try? FileManager.default.removeItem(atPath: folder.path + "-unique") }
        let unique = try Self.reference(["coco-make", "4", folder.path + "-unique"])
        #expect((mine["AP"] as? Double).map { abs($0 - (unique["AP"] as? Double ?? 0)) > 0.01 } == true)
    }

    @Test("eval track equals TrackEval (HOTA, CLEAR, Identity) on seeded sequences", arguments: [1, 2])
    func trackMatchesTrackEval(seed: Int) throws {
        let folder = TestData.temporaryDirectory("eval-mot")
        defer { try? FileManager.default.removeItem(at: folder) }
        let expected = try Self.reference(["mot-make", "\(seed)", folder.path])
        let mine = try Self.evaluate([
            "eval", "track", "--json", "--gt-dir", folder.path + "/gt", "--results-dir", folder.path + "/results",
        ])
        Self.expectSame(mine, expected, "seed \(seed)")
        #expect((mine["sequences"] as? [String: Any])?.count == 4)
        // One sequence alone, as --gt and --results: its own numbers.
        let single = try Self.evaluate([
            "eval", "track", "--json", "--gt", folder.path + "/gt/seq1.txt", "--results",
            folder.path + "/results/seq1.txt",
        ])
        let sequences = try #require(expected["sequences"] as? [String: Any])
        Self.expectSame(single, try #require(sequences["seq1"] as? [String: Any]), "seed \(seed) seq1")
        // Its table: the sequence's row alone, since the combined one would print the same numbers.
        let table = try LiteVisionExecutable.run([
            "eval", "track", "--gt", folder.path + "/gt/seq1.txt", "--results", folder.path + "/results/seq1.txt",
        ])
        let names = table.output.split(separator: "\n").compactMap { $0.split(separator: " ").first.map(String.init) }
        #expect(names.contains("seq1") && !names.contains("combined"), "\(table.output)")
    }

    @Test("eval track: a sequence without ground truth has MOTA 0 alone and -FP combined, as TrackEval")
    func trackWithoutGroundTruth() throws {
        let folder = TestData.temporaryDirectory("eval-mot-empty")
        defer { try? FileManager.default.removeItem(at: folder) }
        for part in ["gt", "results"] {
            try FileManager.default.createDirectory(
                at: folder.appendingPathComponent(part), withIntermediateDirectories: true)
        }
        try Data().write(to: folder.appendingPathComponent("gt/empty.txt"))
        try Data("1,1,10,10,20,20,0.9\n2,1,12,10,20,20,0.9\n".utf8)
            .write(to: folder.appendingPathComponent("results/empty.txt"))
        let expected = try Self.reference(["mot", folder.path + "/gt", folder.path + "/results"])
        let (gt, results) = (folder.path + "/gt/empty.txt", folder.path + "/results/empty.txt")
        let mine = try Self.evaluate(["eval", "track", "--json", "--gt", gt, "--results", results])
        Self.expectSame(mine, expected, "no ground truth")
        let alone = try #require((expected["sequences"] as? [String: Any])?["empty"] as? [String: Any])
        let (own, combined) = (try #require(alone["MOTA"] as? Double), try #require(expected["MOTA"] as? Double))
        #expect(own == 0 && combined == -2, "TrackEval's numbers: \(own), \(combined)")
        // The table shows both rows, since they differ: the sequence's own, then the combined one.
        let table = try LiteVisionExecutable.run(["eval", "track", "--gt", gt, "--results", results])
        let rows = table.output.split(separator: "\n").map { $0.split(separator: " ").map(String.init) }
        let header = try #require(rows.first)
        let mota = try #require(header.firstIndex(of: "MOTA"))
        #expect(rows.first { $0.first == "empty" }?[mota] == "0.0000", "\(table.output)")
        #expect(rows.first { $0.first == "combined" }?[mota] == "-2.0000", "\(table.output)")
        // Every column ends where its header does, the wider negative MOTA too (it was one character out).
        let lines = table.output.split(separator: "\n").prefix(3).map(String.init)
        #expect(lines.count == 3 && Self.alignedRightColumns(lines), "\(table.output)")
    }

    /// Whether every line's cells after the first end at the same characters as the first line's (a table whose
    /// right-aligned columns are in line). With `headerNamesFirstColumn` false, the first line's first cell is empty
    /// (a matrix's corner), so all its cell ends are compared.
    static func alignedRightColumns(_ lines: [String], headerNamesFirstColumn: Bool = true) -> Bool {
        func ends(_ line: String) -> [Int] {
            let characters = Array(line)
            return characters.indices.filter {
                characters[$0] != " " && ($0 + 1 == characters.count || characters[$0 + 1] == " ")
            }
        }
        let header = ends(lines[0]).dropFirst(headerNamesFirstColumn ? 1 : 0)
        return lines.dropFirst().allSatisfy { ends($0).dropFirst() == header }
    }

    @Test("eval classify's tables stay in line with counts wider than the class names")
    func classifyTableAlignment() {
        // 100,000 photos of class "a", all labelled "a": a count of six digits under labels of one letter.
        let evaluation = ClassificationEvaluation(
            classNames: ["a", "b"], samples: Array(repeating: (expected: 0, labels: ["a"]), count: 100_000))
        let lines = EvalOutput.classificationTable(evaluation).rendered.split(separator: "\n").map(String.init)
        let perClass = Array(lines.drop { !$0.hasPrefix("class ") }.prefix(3))
        let matrix = Array(lines.drop { !$0.hasPrefix("confusion matrix") }.dropFirst())
        #expect(perClass.count == 3 && Self.alignedRightColumns(perClass), "\(lines)")
        #expect(matrix.count == 3 && matrix.contains { $0.contains("100000") }, "\(lines)")
        #expect(Self.alignedRightColumns(matrix, headerNamesFirstColumn: false), "\(lines)")
    }

    @Test("eval track --mot17 equals TrackEval with MOT17's preprocessing")
    func trackMOT17() throws {
        let folder = TestData.temporaryDirectory("eval-mot17")
        defer { try? FileManager.default.removeItem(at: folder) }
        let expected = try Self.reference(["mot-make", "5", folder.path, "--mot17"])
        let mine = try Self.evaluate([
            "eval", "track", "--json", "--mot17", "--gt-dir", folder.path + "/gt", "--results-dir",
            folder.path + "/results",
        ])
        Self.expectSame(mine, expected, "--mot17")
        #expect((mine["removedTracker"] as? Int ?? 0) > 0, "the seeded data has tracker boxes on distractors")
    }

    @Test("eval track matches TrackEval's exact ties: HOTA's sums rounded as numpy's")
    func trackTieAsNumPy() throws {
        // Found by differential testing: frame 5 has 9 ground-truth boxes and 8 tracker boxes, two of them identical
        // (tracks 110 and 187). numpy sums each row of the IoU matrix pairwise, and ground truth 5's sum came out an
        // ulp away from a left-to-right sum; the global alignment scores then moved by an ulp, and the assignment gave
        // the tie to the other box: HOTA 0.3526 instead of TrackEval's 0.3625.
        let groundTruth = [
            "5,63,150,80,20,20 5,176,100,50,40,30 5,75,160,90,40,30 5,31,40,70,20,20",
            "5,134,0,40,20,40 5,55,70,75,40,30 5,132,10,80,40,30 5,159,80,60,20,40",
            "5,160,160,50,20,20 10,128,60,40,20,20 11,128,60,40,20,20 11,132,60,40,20,20",
            "14,128,60,40,20,20 14,132,60,40,20,20",
        ]
        let results = [
            "2,187,165,50,15,20 2,110,140,25,20,20 3,110,100,60,15,40 3,187,80,60,20,40",
            "3,43,160,60,20,40 5,3,40,70,20,20 5,21,70,75,40,30 5,147,160,50,20,40",
            "5,140,130,40,40,30 5,187,10,80,40,30 5,110,10,80,40,30 5,43,160,90,40,30",
            "5,182,100,50,40,30 7,187,20,10,40,30 10,187,30,0,40,30 10,43,60,40,20,20",
            "10,110,60,40,20,20 11,187,60,40,20,20 11,110,100,30,20,40 11,43,45,60,25,40",
            "12,110,130,40,40,30 12,43,130,40,40,30 12,187,170,10,40,30 13,110,170,0,20,20",
            "13,43,150,20,20,20 14,110,60,40,20,20 16,43,110,50,20,40 17,43,10,0,40,30",
            "17,187,170,10,20,40",
        ]
        let rows = { (groups: [String]) in groups.flatMap { $0.split(separator: " ").map(String.init) } }
        let (mine, expected) = try Self.sequenceScores(
            "eval-mot-tie", groundTruth: rows(groundTruth), results: rows(results))
        Self.expectSame(mine, expected, "tie")
        #expect(abs((expected["HOTA"] as? Double ?? 0) - 0.3625) < 1e-4, "TrackEval's HOTA: \(expected)")
    }

    @Test("eval track matches TrackEval's exact ties: a lone tracker box's column summed as numpy's")
    func trackColumnTieAsNumPy() throws {
        // Found by a differential search: in frame 1 the one tracker box (6×6) holds all 8 ground-truth boxes, so its
        // column of IoUs, 24/36, 30/36 and six times 1/36, sums to 5/3. Ground truth 1 (seen twice) and 2 (seen once)
        // then tie exactly in real arithmetic. numpy sums the column pairwise, 3 ulps above a left-to-right sum, which
        // gives ground truth 1 the match: HOTA 0.1985; summed left to right, ground truth 2 takes it: 0.2281.
        let groundTruth = [
            "1,2,0,0,6,4", "1,1,0,0,6,5", "1,3,0,5,1,1", "1,4,1,5,1,1", "1,5,2,5,1,1", "1,6,3,5,1,1", "1,7,4,5,1,1",
            "1,8,5,5,1,1", "2,1,0,0,6,5",
        ]
        let (mine, expected) = try Self.sequenceScores(
            "eval-mot-column-tie", groundTruth: groundTruth, results: ["1,1,0,0,6,6"])
        Self.expectSame(mine, expected, "column tie")
        #expect(abs((expected["HOTA"] as? Double ?? 0) - 0.198486) < 1e-5, "TrackEval's HOTA: \(expected)")
    }

    @Test("eval track refuses a sequence given twice in --gt-dir (SEQ.txt and SEQ/gt/gt.txt)")
    func trackSequenceTwice() throws {
        let folder = TestData.temporaryDirectory("eval-mot-twice")
        defer { try? FileManager.default.removeItem(at: folder) }
        let row = Data("1,1,10,10,20,20,1,1,1\n".utf8)
        for part in ["gt/C/gt", "results"] {
            try FileManager.default.createDirectory(
                at: folder.appendingPathComponent(part), withIntermediateDirectories: true)
        }
        for file in ["gt/C.txt", "gt/C/gt/gt.txt", "results/C.txt"] {
            try row.write(to: folder.appendingPathComponent(file))
        }
        let result = try LiteVisionExecutable.run([
            "eval", "track", "--gt-dir", folder.path + "/gt", "--results-dir", folder.path + "/results",
        ])
        // Before, it was evaluated twice: two rows C, and every count of the combined row doubled.
        #expect(result.status == 2)
        #expect(result.errors.contains("the sequence C has two ground truths"), "\(result.errors)")
        #expect(result.output.isEmpty)
    }

    @Test("eval track names a --gt-dir or --results-dir that is missing or a file, before any sequence")
    func trackResultsFolderMissing() throws {
        let folder = TestData.temporaryDirectory("eval-mot-no-results")
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(
            at: folder.appendingPathComponent("gt"), withIntermediateDirectories: true)
        try Data("1,1,10,10,20,20,1,1,1\n".utf8).write(to: folder.appendingPathComponent("gt/C.txt"))
        try Data("1,1,10,10,20,20,1\n".utf8).write(to: folder.appendingPathComponent("file.txt"))
        let badFolders = [(folder.path + "/missing", "no such folder"), (folder.path + "/file.txt", "not a folder")]
        for (results, problem) in badFolders {
            let result = try LiteVisionExecutable.run([
                "eval", "track", "--gt-dir", folder.path + "/gt", "--results-dir", results,
            ])
            // Before, it said "missing/C.txt: no results for the sequence C", as if only that file were missing.
            #expect(result.status == 2)
            #expect(result.errors.contains("\(results): \(problem) (--results-dir)"), "\(result.errors)")
            #expect(result.output.isEmpty)
        }
        let result = try LiteVisionExecutable.run([
            "eval", "track", "--gt-dir", folder.path + "/missing", "--results-dir", folder.path + "/gt",
        ])
        #expect(result.status == 2)
        #expect(result.errors.contains("\(folder.path)/missing: no such folder (--gt-dir)"), "\(result.errors)")
    }

    @Test("eval track on `litevision track` output of a shared video equals TrackEval")
    func trackRealVideo() throws {
        let folder = TestData.temporaryDirectory("eval-video")
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(atPath: folder.path + "/gt", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: folder.path + "/results", withIntermediateDirectories: true)
        let video = TestData.path("video/traffic_frames.mp4")
        // Ground truth: the COCO SSD detector's tracks; results: the built-in object localizer's.
        let runs = [
            (
                folder.path + "/gt/traffic.txt",
                ["--detector", TestData.model("coco_ssd_mobilenet_v1.tflite"), "--multiple", "--threshold", "0.3"]
            ),
            (folder.path + "/results/traffic.txt", ["--multiple", "--threshold", "0.2"]),
        ]
        for (output, options) in runs {
            let result = try LiteVisionExecutable.run(["track", "--mot", output] + options + Self.models + [video])
            #expect(result.status == 0, "\(result.errors)")
        }
        // `track --mot` writes the score in the seventh column, which in a ground truth is the "consider" flag
        // (TrackEval, and eval track, drop rows whose flag is 0 as an integer). Used as it is, it is warned of.
        let raw = try LiteVisionExecutable.run(["eval", "track", "--gt", runs[0].0, "--results", runs[1].0])
        #expect(raw.status == 0, "\(raw.errors)")
        #expect(raw.errors.contains("sequence 'traffic': none of its"), "\(raw.errors)")
        #expect(raw.errors.contains("Put 1 there to evaluate it."), "\(raw.errors)")
        // As an annotation tool exports it, the ground truth has 1 there, and class 1: no warning.
        let rows = try String(contentsOfFile: runs[0].0, encoding: .utf8).split(separator: "\n").map {
            $0.split(separator: ",").prefix(6).joined(separator: ",") + ",1,1,1\n"
        }
        #expect(rows.count > 20, "the ground truth has boxes in most of the 20 frames")
        try Data(rows.joined().utf8).write(to: URL(fileURLWithPath: runs[0].0))
        let expected = try Self.reference(["mot", folder.path + "/gt", folder.path + "/results"])
        let mine = try Self.evaluate([
            "eval", "track", "--json", "--gt", runs[0].0, "--results", runs[1].0,
        ])
        Self.expectSame(mine, expected, "traffic_frames")
        #expect((mine["TP"] as? Int ?? 0) > 0)
        let fixed = try LiteVisionExecutable.run(["eval", "track", "--gt", runs[0].0, "--results", runs[1].0])
        #expect(fixed.status == 0 && !fixed.errors.contains("warning"), "\(fixed.errors)")
    }

    @Test("eval detect --images runs the COCO SSD detector on shared photos; equals pycocotools on its results")
    func detectWithDetector() throws {
        let folder = TestData.temporaryDirectory("eval-detector")
        defer { try? FileManager.default.removeItem(at: folder) }
        // Ground truth drawn by hand on the two photos.
        let groundTruth: [String: Any] = [
            "images": [
                ["id": 1, "file_name": "yolox_dog_bicycle_truck.jpg"], ["id": 2, "file_name": "multi_objects.jpg"],
            ],
            "categories": [
                ["id": 1, "name": "person"], ["id": 2, "name": "bicycle"], ["id": 3, "name": "car"],
                ["id": 8, "name": "truck"], ["id": 18, "name": "dog"], ["id": 62, "name": "chair"],
                ["id": 85, "name": "clock"], ["id": 10, "name": "traffic light"],
            ],
            "annotations": [
                Self.annotation(1, 1, 2, [130, 125, 440, 305]), Self.annotation(2, 1, 8, [465, 75, 225, 95]),
                Self.annotation(3, 1, 18, [130, 215, 180, 325]), Self.annotation(4, 1, 3, [690, 125, 33, 30]),
                Self.annotation(5, 2, 62, [155, 190, 125, 140]), Self.annotation(6, 2, 62, [30, 170, 210, 175]),
                Self.annotation(7, 2, 85, [425, 146, 105, 98]), Self.annotation(8, 2, 10, [684, 117, 82, 106]),
                Self.annotation(9, 2, 1, [280, 36, 118, 134]), Self.annotation(10, 2, 62, [250, 160, 146, 196]),
            ],
        ]
        let gtPath = folder.path + "/gt.json"
        try JSONSerialization.data(withJSONObject: groundTruth).write(to: URL(fileURLWithPath: gtPath))
        let saved = folder.path + "/dets.json"
        let plot = folder.path + "/pr.png"
        let mine = try Self.evaluate(
            [
                "eval", "detect", "--json", "--annotations", gtPath, "--images", TestData.path("images"),
                "--detector", TestData.model("coco_ssd_mobilenet_v1.tflite"), "--save-results", saved, "--plot", plot,
            ] + Self.models)
        let expected = try Self.reference(["coco", gtPath, saved])
        Self.expectSame(mine, expected, "coco_ssd")
        let ap50 = try #require(mine["AP50"] as? Double)
        #expect(ap50 > 0.3, "the detector finds most of the hand-drawn objects")
        // The saved results are the detector's: the reference runtime's bicycle is among them.
        let detections = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: saved))) as? [[String: Any]])
        #expect(
            detections.contains { d in
                let b = d["bbox"] as? [Double] ?? []
                return d["category_id"] as? Int == 2 && b.count == 4 && abs(b[0] - 135.9) < 3 && abs(b[2] - 443.1) < 3
            })
        try Self.expectChart(plot)
    }

    static func annotation(_ id: Int, _ image: Int, _ category: Int, _ box: [Double]) -> [String: Any] {
        ["id": id, "image_id": image, "category_id": category, "bbox": box, "area": box[2] * box[3], "iscrowd": 0]
    }

    /// The PNG at `path` decodes, and holds a drawing: many pixels neither white nor of one color.
    static func expectChart(_ path: String) throws {
        let image = try ImageDecoder().decodeFile(atPath: path).image
        #expect(image.width >= 300 && image.height >= 200)
        var colored = 0
        var colors = Set<Int>()
        let channels = image.format.bytesPerPixel
        for y in 0..<image.height {
            for x in 0..<image.width {
                let offset = y * image.bytesPerRow + x * channels
                let (r, g, b) = (image.pixels[offset], image.pixels[offset + 1], image.pixels[offset + 2])
                if r != 255 || g != 255 || b != 255 { colored += 1 }
                colors.insert(Int(r) << 16 | Int(g) << 8 | Int(b))
            }
        }
        #expect(colored > image.width * image.height / 50, "the chart draws something")
        #expect(colors.count > 10, "in several colors")
    }

    @Test("eval classify: the flower classifier on shared photos sorted per class (symlinks), as the reference")
    func classifyFlowers() throws {
        let folder = TestData.temporaryDirectory("eval-classify")
        defer { try? FileManager.default.removeItem(at: folder) }
        // Each flower photo in its class; a burger among the daisies and Liberty among the sunflowers (wrong on
        // purpose: the reference gives them roses and tulips).
        let placed = [
            ("daisy", "daisy.jpeg"), ("daisy", "burger.jpg"), ("dandelion", "dandelion.jpg"), ("roses", "roses.jpeg"),
            ("sunflowers", "sunflower.jpg"), ("sunflowers", "liberty.jpg"), ("tulips", "tulips.jpeg"),
        ]
        for (label, photo) in placed {
            let classFolder = folder.appendingPathComponent("photos/\(label)")
            try FileManager.default.createDirectory(at: classFolder, withIntermediateDirectories: true)
            try FileManager.default.createSymbolicLink(
                atPath: classFolder.appendingPathComponent(photo).path, withDestinationPath: TestData.image(photo))
        }
        // Hidden files are no photos of the class (macOS leaves `._NAME` companions beside photos copied off it).
        for hidden in ["._daisy.jpeg", ".thumbnail.jpg"] {
            try Data("not a photo".utf8).write(to: folder.appendingPathComponent("photos/daisy/\(hidden)"))
        }
        // The expected numbers from the reference runtime's labels (shared/reference/labels.json).
        let labels = try #require(
            try JSONSerialization.jsonObject(
                with: Data(contentsOf: URL(fileURLWithPath: TestData.path("reference/labels.json")))) as? [String: Any])
        let flowers = try #require(labels["automl_flowers.tflite"] as? [String: [[String: Any]]])
        let top1Correct = placed.filter { label, photo in flowers[photo]?.first?["text"] as? String == label }.count
        #expect(top1Correct == 5)
        let plot = folder.path + "/confusion.png"
        let mine = try Self.evaluate([
            "eval", "classify", "--json", "--model", TestData.model("automl_flowers.tflite"), "--labels",
            TestData.model("automl_flowers.labels.txt"), "--plot", plot, folder.path + "/photos",
        ])
        #expect(mine["images"] as? Int == placed.count)
        #expect(abs((mine["top1Accuracy"] as? Double ?? -1) - Double(top1Correct) / Double(placed.count)) < 1e-12)
        #expect(mine["top5Accuracy"] as? Double == 1, "five classes: every class is in the top five")
        let classes = try #require(mine["classes"] as? [[String: Any]])
        let daisy = try #require(classes.first { $0["name"] as? String == "daisy" })
        #expect(daisy["recall"] as? Double == 0.5 && daisy["precision"] as? Double == 1)
        let roses = try #require(classes.first { $0["name"] as? String == "roses" })
        #expect(roses["precision"] as? Double == 0.5 && roses["recall"] as? Double == 1)
        let counts = try #require((mine["confusion"] as? [String: Any])?["counts"] as? [[Int]])
        #expect(counts[0] == [1, 0, 1, 0, 0, 0], "daisy: one daisy, the burger as roses")
        try Self.expectChart(plot)
        // The table form prints the same accuracy.
        let table = try LiteVisionExecutable.run([
            "eval", "classify", "--model", TestData.model("automl_flowers.tflite"), "--labels",
            TestData.model("automl_flowers.labels.txt"), folder.path + "/photos",
        ])
        #expect(table.status == 0, "\(table.errors)")
        #expect(table.output.contains("top-1 accuracy  0.7143  (5 of 7)"), "\(table.output)")
    }

    @Test("eval classify refuses class folders naming one class twice, and a model whose labels name none of them")
    func classifyFoldersChecked() throws {
        let folder = TestData.temporaryDirectory("eval-classify-folders")
        defer { try? FileManager.default.removeItem(at: folder) }
        func place(_ photo: String, in name: String) throws {
            let classFolder = folder.appendingPathComponent(name)
            try FileManager.default.createDirectory(at: classFolder, withIntermediateDirectories: true)
            try FileManager.default.createSymbolicLink(
                atPath: classFolder.appendingPathComponent(photo).path, withDestinationPath: TestData.image(photo))
        }
        func classify(_ arguments: [String]) throws -> (status: Int32, output: String, errors: String) {
            let result = try LiteVisionExecutable.run(
                ["eval", "classify", "--model", TestData.model("automl_flowers.tflite")] + arguments + [folder.path])
            return (result.status, result.output, result.errors)
        }
        let labels = ["--labels", TestData.model("automl_flowers.labels.txt")]
        try place("daisy.jpeg", in: "daisy")
        try place("roses.jpeg", in: "Daisy")
        let twice = try classify(labels)
        #expect(twice.status == 2 && twice.output.isEmpty)
        #expect(twice.errors.contains("the folders 'Daisy' and 'daisy' name the same class"), "\(twice.errors)")
        try FileManager.default.removeItem(at: folder.appendingPathComponent("Daisy"))
        // The flower model has its labels in a file of their own, not in its metadata: forgetting it scored 0 before.
        let unlabeled = try classify([])
        #expect(unlabeled.status == 2 && unlabeled.output.isEmpty)
        #expect(
            unlabeled.errors.contains("has no labels in its metadata: give its label file with --labels FILE"),
            "\(unlabeled.errors)")
        try place("burger.jpg", in: "burger")
        let partly = try classify(labels)
        #expect(partly.status == 0, "\(partly.errors)")
        #expect(partly.output.contains("top-1 accuracy  0.5000  (1 of 2)"), "\(partly.output)")
        #expect(
            partly.errors.contains("warning: \(folder.path): class folder 'burger' is none of the model's labels"),
            "\(partly.errors)")
        try FileManager.default.removeItem(at: folder.appendingPathComponent("daisy"))
        let none = try classify(labels)
        #expect(none.status == 2 && none.output.isEmpty)
        #expect(
            none.errors.contains("no class folder is named as one of the model's 5 labels ('daisy', 'dandelion',"),
            "\(none.errors)")
        let missing = try LiteVisionExecutable.run([
            "eval", "classify", "--model", TestData.model("automl_flowers.tflite"), folder.path + "/none",
        ])
        #expect(missing.status == 2)
        #expect(missing.errors.contains("\(folder.path)/none: no such folder"), "\(missing.errors)")
    }

    @Test("eval detect checks --images is a folder before any work, and takes --results or --images, not both")
    func detectImagesFolderChecked() throws {
        let folder = TestData.temporaryDirectory("eval-detect-images")
        defer { try? FileManager.default.removeItem(at: folder) }
        let gt = folder.appendingPathComponent("gt.json")
        let json = """
            {"images": [{"id": 1, "file_name": "a.jpg"}], "categories": [{"id": 1, "name": "a"}], "annotations": []}
            """
        try Data(json.utf8).write(to: gt)
        for (images, problem) in [(folder.path + "/none", "no such folder"), (gt.path, "not a folder")] {
            let result = try LiteVisionExecutable.run([
                "eval", "detect", "--annotations", gt.path, "--images", images,
            ])
            #expect(result.status == 2 && result.output.isEmpty, "\(images)")
            #expect(
                result.errors.contains("--images \(images): \(problem): give the folder that holds the ground truth's"),
                "\(result.errors)")
        }
        let both = try LiteVisionExecutable.run([
            "eval", "detect", "--annotations", gt.path, "--images", folder.path, "--results", gt.path,
        ])
        #expect(both.status == 64)
        #expect(both.errors.contains("not both"), "\(both.errors)")
    }

    @Test("hostile evaluation files get one specific error naming the file and line")
    func hostileFiles() throws {
        let folder = TestData.temporaryDirectory("eval-hostile")
        defer { try? FileManager.default.removeItem(at: folder) }
        func write(_ name: String, _ text: String) throws -> String {
            let path = folder.appendingPathComponent(name).path
            try Data(text.utf8).write(to: URL(fileURLWithPath: path))
            return path
        }
        let goodMOT = try write("good.txt", "1,1,10,10,20,20,1,1,1\n")
        let cases: [(arguments: [String], message: String)] = [
            (
                ["--gt", try write("short.txt", "1,1,10,10,20,20,1,1,1\n2,1,10,10\n"), "--results", goodMOT],
                "short.txt:2: 4 columns, expected 6 to 64: frame,id,x,y,w,h[,conf,class,visibility,…]"
            ),
            (
                ["--gt", goodMOT, "--results", try write("nan.txt", "1,1,10,nan,20,20,1\n")],
                "nan.txt:1: column 4 (y) is nan: write a finite number"
            ),
            (
                ["--gt", goodMOT, "--results", try write("word.txt", "\n\n1,1,10,ten,20,20\n")],
                "word.txt:3: column 4 (y) is not a number: 'ten'"
            ),
            (
                ["--gt", goodMOT, "--results", try write("frame0.txt", "0,1,10,10,20,20\n")],
                "frame0.txt:1: column 1 (frame) is 0: write a whole number from 1 to 100000000"
            ),
            (
                ["--gt", goodMOT, "--results", try write("twice.txt", "1,4,10,10,20,20\n1,4,11,10,20,20\n")],
                "twice.txt:2: the id 4 appears twice in frame 1"
            ),
        ]
        for (arguments, message) in cases {
            let result = try LiteVisionExecutable.run(["eval", "track"] + arguments)
            #expect(result.status == 2, "\(arguments)")
            #expect(result.errors.contains(message), "\(result.errors)")
            #expect(result.output.isEmpty)
        }
        let gt = try write(
            "gt.json",
            "{\"images\": [{\"id\": 1}], \"categories\": [{\"id\": 1, \"name\": \"a\"}],\n \"annotations\": []}")
        let jsonCases: [(annotations: String, results: String, message: String)] = [
            (try write("bad.json", "{\"images\": [\n  {\"id\": 1,}\n]}"), gt, "bad.json:2: not valid JSON"),
            (
                gt,
                try write(
                    "nanscore.json", "[{\"image_id\": 1, \"category_id\": 1, \"bbox\": [1,2,3,4], \"score\": NaN}]"),
                "nanscore.json:1: not valid JSON: NaN and Infinity are not numbers in JSON"
            ),
            (
                gt, try write("box3.json", "[{\"image_id\": 1, \"category_id\": 1, \"bbox\": [1,2,3], \"score\": 1}]"),
                "detection [0].bbox must be [x, y, width, height], not an array of 3 values"
            ),
            (
                gt,
                try write("image9.json", "[{\"image_id\": 9, \"category_id\": 1, \"bbox\": [1,2,3,4], \"score\": 1}]"),
                "detection [0] is in image 9, which the ground truth does not list"
            ),
            (try write("deep.json", String(repeating: "[", count: 100_000)), gt, "nest deeper than 64"),
            // pycocotools would ignore this region yet match it as no crowd: refused instead.
            (
                try write(
                    "halfcrowd.json",
                    "{\"images\": [{\"id\": 1}], \"categories\": [{\"id\": 1, \"name\": \"a\"}], \"annotations\": "
                        + "[{\"id\": 1, \"image_id\": 1, \"category_id\": 1, \"bbox\": [0,0,10,10], "
                        + "\"iscrowd\": 0.5}]}"),
                gt, "annotations[0].iscrowd must be a whole number or a boolean (0 or false: no crowd), not 0.5"
            ),
            (
                try write("bigid.json", "{\"images\": [{\"id\": 1152921504606846976}], \"categories\": []}"), gt,
                "images[0].id is out of range: ids must be integers within ±(2^53 − 1) (9007199254740991)"
            ),
        ]
        for (annotations, results, message) in jsonCases {
            let result = try LiteVisionExecutable.run([
                "eval", "detect", "--annotations", annotations, "--results", results,
            ])
            #expect(result.status == 2)
            #expect(result.errors.contains(message), "\(result.errors)")
        }
        // Found by the fuzzer: a huge "consider" flag (read as an integer, as TrackEval does) and a far frame number
        // are values, not a crash or a giant allocation.
        let odd = try write(
            "odd.txt", "1,1,11,12,20,20,4.7e40,1,1\n1,2,50,50,9,9,1,1e30,1\n99999999,1,11,12,20,20,1,1,1\n")
        let oddResult = try LiteVisionExecutable.run(["eval", "track", "--json", "--gt", odd, "--results", goodMOT])
        #expect(oddResult.status == 0, "\(oddResult.errors)")
        #expect(oddResult.output.contains("\"TP\": 1,"), "\(oddResult.output)")
        let oddMOT17 = try LiteVisionExecutable.run(["eval", "track", "--mot17", "--gt", odd, "--results", goodMOT])
        #expect(
            oddMOT17.status == 2 && oddMOT17.errors.contains("odd.txt:2: class 1e+30 is not a MOTChallenge class"),
            "\(oddMOT17.errors)")
        let missing = try LiteVisionExecutable.run(["eval", "track", "--gt", goodMOT])
        #expect(missing.status != 0 && missing.errors.contains("--gt FILE --results FILE"), "\(missing.errors)")
    }
}
