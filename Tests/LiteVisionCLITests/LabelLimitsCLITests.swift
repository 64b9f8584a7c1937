import Foundation
import LiteVisionTestSupport
import Testing

/// `detect` and `track` with ML Kit's label limits (`--label-threshold`, `--max-labels`), and labels in their
/// JSON only when classification is on.
@Suite("litevision detect and track: label limits and labels in JSON")
struct LabelLimitsCLITests {
    static let models = ["--model-dir", TestData.path("models")]
    static let classifier = ["--model", TestData.model("object_labeler.tflite")]

    /// The objects of every JSON line of `text`.
    static func objects(_ text: String) throws -> [[String: Any]] {
        try text.split(separator: "\n").flatMap { line -> [[String: Any]] in
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            return object["objects"] as? [[String: Any]] ?? []
        }
    }

    /// The confidences of an object's labels, or nil when it has no `labels` key.
    static func confidences(_ object: [String: Any]) -> [Double]? {
        (object["labels"] as? [[String: Any]])?.map { ($0["confidence"] as? Double) ?? -1 }
    }

    @Test("detect: --label-threshold and --max-labels limit each object's labels, highest first")
    func detectLimits() throws {
        let photos = ["burger.jpg", "kite_and_cold.jpg", "img_meal_one.jpg"].map { TestData.image($0) }
        let free = try LiteVisionExecutable.run(
            ["detect", "--json", "--multiple"] + Self.models + Self.classifier + photos)
        #expect(free.status == 0, "\(free.errors)")
        let unlimited = try Self.objects(free.output).compactMap(Self.confidences)
        #expect(unlimited.contains { $0.count > 1 }, "without limits some object has several labels")
        #expect(unlimited.contains { $0.contains { $0 < 0.95 } }, "and labels under 0.95")

        let limited = try LiteVisionExecutable.run(
            ["detect", "--json", "--multiple", "--label-threshold", "0.95", "--max-labels", "1"] + Self.models
                + Self.classifier + photos)
        #expect(limited.status == 0, "\(limited.errors)")
        let objects = try Self.objects(limited.output)
        #expect(!objects.isEmpty)
        for object in objects {
            let labels = try #require(Self.confidences(object), "classification is on: labels are there")
            #expect(labels.count <= 1 && labels.allSatisfy { $0 >= 0.95 }, "\(labels)")
        }
        #expect(objects.contains { Self.confidences($0)?.isEmpty == false })
    }

    @Test("detect --json: no labels key without classification; a detector's class is detectorLabel")
    func detectWithoutClassification() throws {
        let plain = try LiteVisionExecutable.run(
            ["detect", "--json", "--multiple"] + Self.models + [TestData.image("pets.jpg")])
        #expect(plain.status == 0, "\(plain.errors)")
        let objects = try Self.objects(plain.output)
        #expect(!objects.isEmpty && objects.allSatisfy { $0["labels"] == nil && $0["detectorLabel"] == nil })

        let coco = try LiteVisionExecutable.run(
            ["detect", "--json", "--multiple", "--detector", TestData.model("coco_ssd_mobilenet_v1.tflite")]
                + Self.models + [TestData.image("pets.jpg")])
        #expect(coco.status == 0, "\(coco.errors)")
        let found = try Self.objects(coco.output)
        #expect(!found.isEmpty && found.allSatisfy { $0["labels"] == nil })
        #expect(found.contains { ($0["detectorLabel"] as? [String: Any])?["text"] as? String == "dog" })
    }

    @Test("track --json on cup.mp4: limits applied to smoothed labels; no labels key without classification")
    func track() throws {
        let folder = TestData.temporaryDirectory("cli-track-labels")
        defer { try? FileManager.default.removeItem(at: folder) }
        let json = folder.appendingPathComponent("cup.jsonl").path
        let result = try LiteVisionExecutable.run(
            ["track", "--json", json, "--label-threshold", "0.3", "--max-labels", "2"] + Self.models
                + Self.classifier + [TestData.path("video/cup.mp4")])
        #expect(result.status == 0, "\(result.errors)")
        let objects = try Self.objects(try String(contentsOfFile: json, encoding: .utf8))
        #expect(objects.count > 100)
        var labelled = 0
        for object in objects {
            let labels = try #require(Self.confidences(object))
            #expect(labels.count <= 2 && labels.allSatisfy { $0 >= 0.3 } && labels == labels.sorted(by: >), "\(labels)")
            if !labels.isEmpty { labelled += 1 }
        }
        #expect(labelled > 50)

        let plainJSON = folder.appendingPathComponent("plain.jsonl").path
        let plain = try LiteVisionExecutable.run(
            ["track", "--json", plainJSON] + Self.models + [TestData.path("video/cup.mp4")])
        #expect(plain.status == 0, "\(plain.errors)")
        let plainObjects = try Self.objects(try String(contentsOfFile: plainJSON, encoding: .utf8))
        #expect(!plainObjects.isEmpty && plainObjects.allSatisfy { $0["labels"] == nil })
    }

    @Test(
        "Invalid label limits are refused with the option named",
        arguments: [
            (["--label-threshold", "1.5"], "--label-threshold"), (["--max-labels", "0"], "--max-labels"),
            (["--classify", "--max-labels", "2"], "--max-labels"),
        ])
    func invalid(arguments: [String], option: String) throws {
        let classifier = arguments.contains("--classify") ? [] : Self.classifier
        let result = try LiteVisionExecutable.run(
            ["detect"] + arguments + classifier + Self.models + [TestData.image("pets.jpg")])
        #expect(result.status != 0)
        #expect(result.errors.contains(option), "\(result.errors)")
    }
}
