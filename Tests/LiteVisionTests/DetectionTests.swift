import Foundation
import LiteVision
import LiteVisionTestSupport
import Testing

@Suite("Object detection parity with the reference outputs")
struct DetectionParityTests {
    @Test(
        "Both detectors on every shared photo agree with reference/detections.json",
        arguments: ReferenceDetections.detectors)
    func sharedPhotos(detector file: String) throws {
        let reference = try #require(try ReferenceDetections.load()[file])
        let detector = try ReferenceDetections.detector(for: file)
        var failures: [String] = []
        var checked = 0
        for name in TestData.imageNames {
            let expected = try #require(reference[name], "no reference for \(name)")
            let objects = try detector.results(in: try VisionImage(contentsOfFile: TestData.image(name)))
            #expect(objects.allSatisfy { $0.trackingID == nil })
            checked += expected.detections.filter { $0.score >= 0.5 }.count
            failures += ReferenceDetections.parityFailures(
                objects, reference: expected.detections,
                context: "\(file) \(name)", checkText: file.hasPrefix("coco"))
        }
        #expect(checked >= 20, "the reference has enough confident detections to compare")
        #expect(failures.isEmpty, "\(failures.joined(separator: "\n"))")
    }

    @Test("New photos made by the test agree with references computed now by reference.py")
    func unseenPhotos() throws {
        let folder = TestData.temporaryDirectory("unseen-detect")
        let output = TestData.temporaryDirectory("unseen-detect-reference")
        defer {
            try? FileManager.default.removeItem(at: folder)
            try? FileManager.default.removeItem(at: output)
        }
        let names = try PhotoFixtures.writeUnseenPhotos(into: folder)
        try PhotoFixtures.computeReference(images: folder, output: output)
        let reference = try ReferenceDetections.load(from: output.appendingPathComponent("detections.json").path)
        var failures: [String] = []
        var checked = 0
        for file in ReferenceDetections.detectors {
            let detector = try ReferenceDetections.detector(for: file)
            for name in names {
                let expected = try #require(reference[file]?[name])
                checked += expected.detections.filter { $0.score >= 0.5 }.count
                let objects = try detector.results(
                    in: try VisionImage(contentsOfFile: folder.appendingPathComponent(name).path))
                failures += ReferenceDetections.parityFailures(
                    objects, reference: expected.detections,
                    context: "\(file) \(name)", checkText: file.hasPrefix("coco"))
            }
        }
        #expect(checked >= 3)
        #expect(failures.isEmpty, "\(failures.joined(separator: "\n"))")
    }
}

@Suite("Object detection options")
struct DetectionModeTests {
    static func options(_ change: (ObjectDetectorOptions) -> Void) -> ObjectDetectorOptions {
        let options = ObjectDetectorOptions()
        options.modelDirectory = TestData.path("models")
        change(options)
        return options
    }

    @Test("Single-image mode: nil tracking IDs; one object with multiple objects off")
    func singleImage() throws {
        let detector = try ObjectDetector(options: Self.options { $0.detectorMode = .singleImage })
        let objects = try detector.results(in: try VisionImage(contentsOfFile: TestData.image("pets.jpg")))
        #expect(objects.count == 1)
        #expect(objects.allSatisfy { $0.trackingID == nil && $0.labels.isEmpty })
        // Prominence weighs score, size and centrality: the dog on the left (reference score 0.72) is larger
        // and much nearer the center than the one on the right (0.86), so it is the most prominent.
        let left = BoundingBox(
            x: 0.231 * 512, y: 0.109 * 430, width: (0.501 - 0.231) * 512, height: (0.690 - 0.109) * 430)
        #expect(objects[0].frame.iou(left) > 0.85)
        #expect(abs(objects[0].detectionConfidence - 0.719) < 0.05)
    }

    @Test("Multiple objects: at most 5, unless the cap is raised")
    func cap() throws {
        let photo = try VisionImage(contentsOfFile: TestData.image("kite_and_cold.jpg"))
        var detector = try ObjectDetector(
            options: Self.options {
                $0.detectorMode = .singleImage
                $0.shouldEnableMultipleObjects = true
                $0.detectionThreshold = 0.1
            })
        #expect(try detector.results(in: photo).count == 5)
        detector = try ObjectDetector(
            options: Self.options {
                $0.detectorMode = .singleImage
                $0.shouldEnableMultipleObjects = true
                $0.detectionThreshold = 0.1
                $0.maximumObjectCount = 30
            })
        let many = try detector.results(in: photo)
        #expect(many.count > 5 && many.count <= 30)
        #expect(zip(many, many.dropFirst()).allSatisfy { $0.detectionConfidence >= $1.detectionConfidence })
    }

    @Test("Stream mode: non-negative tracking IDs that persist on a still image")
    func stream() throws {
        let detector = try ObjectDetector(
            options: Self.options { $0.shouldEnableMultipleObjects = true })
        let photo = try VisionImage(contentsOfFile: TestData.image("dogs.jpg")).decoded()
        let first = try detector.results(in: photo)
        #expect(first.count >= 2)
        #expect(first.allSatisfy { ($0.trackingID ?? -1) >= 0 })
        for _ in 0..<5 {
            let again = try detector.results(in: photo)
            #expect(Set(again.compactMap(\.trackingID)) == Set(first.compactMap(\.trackingID)))
        }
        detector.resetTracking()
        let fresh = try detector.results(in: photo)
        #expect(Set(fresh.compactMap(\.trackingID)).isDisjoint(with: Set(first.compactMap(\.trackingID))))
    }

    @Test("A missing built-in model says where to put it and where to get it")
    func missingBuiltIn() throws {
        let empty = TestData.temporaryDirectory("no-models")
        defer { try? FileManager.default.removeItem(at: empty) }
        let options = ObjectDetectorOptions()
        options.modelDirectory = empty.path
        options.allowsModelDownload = false  // the download path is tested against a loopback server (ModelDownloadTests)
        #expect {
            try ObjectDetector(options: options)
        } throws: { error in
            let text = "\(error)"
            return text.contains(empty.path) && text.contains("mobile_object_localizer_v1.tflite")
                && text.contains("e0a587f55e046db42c8a751fde2f2e12a15bbf23fc893c2ebd8cdfb3cadc5e2e")
        }
    }

    @Test("A classifier given as a detector is refused")
    func classifierAsDetector() throws {
        #expect {
            try ObjectDetector(
                options: Self.options { $0.detectorModel = LocalModel(path: TestData.model("bird.tflite")) })
        } throws: { error in
            guard case VisionError.unsupportedModel(_, let reason)? = error as? VisionError else { return false }
            return reason.contains("classifier")
        }
    }
}

@Suite("Custom detector models")
struct CustomDetectorTests {
    static func detector(_ model: LocalModel) throws -> ObjectDetector {
        let options = ObjectDetectorOptions()
        options.detectorMode = .singleImage
        options.shouldEnableMultipleObjects = true
        options.detectionThreshold = 0.3
        options.detectorModel = model
        return try ObjectDetector(options: options)
    }

    @Test("COCO SSD: labels from its metadata, class 0 = person; the class is detectorLabel, labels stay empty")
    func coco() throws {
        let objects = try Self.detector(LocalModel(path: TestData.model("coco_ssd_mobilenet_v1.tflite")))
            .results(in: try VisionImage(contentsOfFile: TestData.image("pets.jpg")))
        #expect(objects.count >= 2)
        #expect(objects.prefix(2).allSatisfy { $0.detectorLabel?.text == "dog" && $0.detectorLabel?.index == 17 })
        // Classification is off: ML Kit returns no labels, whatever the detector.
        #expect(objects.allSatisfy { $0.labels.isEmpty })
    }

    @Test("Custom SSD detector in stream mode with classification off: empty labels, class in detectorLabel")
    func cocoStream() throws {
        let options = ObjectDetectorOptions()
        options.shouldEnableMultipleObjects = true
        options.detectionThreshold = 0.3
        options.detectorModel = LocalModel(path: TestData.model("coco_ssd_mobilenet_v1.tflite"))
        let detector = try ObjectDetector(options: options)
        let image = try VisionImage(contentsOfFile: TestData.image("pets.jpg"))
        var seen = 0
        for _ in 0..<3 {
            for object in try detector.results(in: image) {
                #expect(object.labels.isEmpty)
                if object.detectorLabel?.text == "dog" { seen += 1 }
            }
        }
        #expect(seen >= 2)
    }

    @Test("AutoML salad detector: background line skipped, byte-string labels unwrapped")
    func salad() throws {
        let detector = try Self.detector(LocalModel(path: TestData.model("salad_detector_automl.tflite")))
        var texts: Set<String> = []
        for name in ["img_meal_one.jpg", "img_meal_two.jpg", "img_meal_three.jpg", "burger.jpg"] {
            for object in try detector.results(in: try VisionImage(contentsOfFile: TestData.image(name))) {
                #expect(object.labels.isEmpty)
                texts.formUnion(object.detectorLabel.map { [$0.text] } ?? [])
            }
        }
        #expect(!texts.isEmpty)
        #expect(texts.isSubset(of: ["Cheese", "Salad", "Baked Goods", "Tomato", "Seafood"]), "\(texts)")
    }

    @Test("TF2 food detector without metadata: output order found, labels from its file")
    func food() throws {
        let detector = try Self.detector(
            LocalModel(
                path: TestData.model("food_ssd_mobilenet_v2_tf2.tflite"),
                labelsPath: TestData.model("food_ssd_mobilenet_v2_tf2.labels.txt")))
        let labels = Set(
            try ["img_meal_one.jpg", "img_meal_two.jpg", "img_meal_three.jpg", "burger.jpg"].flatMap {
                try detector.results(in: try VisionImage(contentsOfFile: TestData.image($0))).compactMap {
                    $0.detectorLabel?.text
                }
            })
        let known: Set<String> = [
            "french_fries", "sausage", "grilled_chicken", "fish", "scrambled_egg", "pasta", "lettuce", "cantaloupe",
        ]
        #expect(!labels.isEmpty && labels.isSubset(of: known), "\(labels)")
        for object in try detector.results(in: try VisionImage(contentsOfFile: TestData.image("img_meal_two.jpg"))) {
            #expect(object.frame.width > 0 && object.frame.maxX <= 800 && object.frame.maxY <= 600)
        }
    }

    @Test("The localizer without metadata finds the same dogs as with metadata")
    func noMetadata() throws {
        let with = try Self.detector(LocalModel(path: TestData.model("mobile_object_localizer_v1.tflite")))
            .results(in: try VisionImage(contentsOfFile: TestData.image("pets.jpg")))
        let without = try Self.detector(
            LocalModel(path: TestData.model("mobile_object_localizer_v1_nometadata.tflite"))
        )
        .results(in: try VisionImage(contentsOfFile: TestData.image("pets.jpg")))
        #expect(with.count == without.count && with.count >= 2)
        for (a, b) in zip(with, without) { #expect(a.frame.iou(b.frame) > 0.99) }
    }
}
