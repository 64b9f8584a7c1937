import Foundation
import LiteVision
import LiteVisionTestSupport

/// One expected detection from reference/detections.json (computed with the official LiteRT runtime).
struct ReferenceDetection: Decodable {
    struct Frame: Decodable {
        let x: Double, y: Double, width: Double, height: Double
        var box: BoundingBox { BoundingBox(x: x, y: y, width: width, height: height) }
    }
    let score: Float
    let `class`: Int
    let text: String
    let frame: Frame
}

struct ReferenceImageDetections: Decodable {
    let image_size: [Int]
    let detections: [ReferenceDetection]
}

enum ReferenceDetections {
    static func load(
        from path: String = TestData.path("reference/detections.json")
    ) throws -> [String: [String: ReferenceImageDetections]] {
        try JSONDecoder().decode(
            [String: [String: ReferenceImageDetections]].self,
            from: Data(contentsOf: URL(fileURLWithPath: path)))
    }

    /// The two detectors of the reference and the options that run each through LiteVision in single-image
    /// mode, returning every object the detector reports at 0.3 or more.
    static let detectors: [String] = ["mobile_object_localizer_v1.tflite", "coco_ssd_mobilenet_v1.tflite"]

    static func detector(
        for file: String, preprocessing: ProcessingOptions.Preprocessing = .exact
    ) throws -> ObjectDetector {
        let options = ObjectDetectorOptions()
        options.detectorMode = .singleImage
        options.shouldEnableMultipleObjects = true
        options.maximumObjectCount = 100
        options.detectionThreshold = 0.3
        options.modelDirectory = TestData.path("models")
        options.processing.preprocessing = preprocessing
        if file != "mobile_object_localizer_v1.tflite" {
            options.detectorModel = LocalModel(path: TestData.model(file))
        }
        return try ObjectDetector(options: options)
    }

    /// The issue's parity rule: every reference detection with score >= 0.5 is found with IoU >= 0.85 and a
    /// score within ±0.05 (and, for detectors with classes, the same label text).
    static func parityFailures(
        _ objects: [DetectedObject], reference: [ReferenceDetection], context: String,
        checkText: Bool
    ) -> [String] {
        var failures: [String] = []
        for expected in reference where expected.score >= 0.5 {
            let best = objects.max { $0.frame.iou(expected.frame.box) < $1.frame.iou(expected.frame.box) }
            guard let best, best.frame.iou(expected.frame.box) >= 0.85 else {
                failures.append(
                    "\(context): no box for \(expected.text) \(expected.score) at \(expected.frame.box) (best IoU \(best.map { $0.frame.iou(expected.frame.box) } ?? 0))"
                )
                continue
            }
            let score = best.detectionConfidence
            if abs(score - expected.score) > 0.05 {
                failures.append("\(context): \(expected.text) score \(score), reference \(expected.score)")
            }
            if checkText && best.detectorLabel?.text != expected.text {
                failures.append("\(context): label \(best.detectorLabel?.text ?? "none"), reference \(expected.text)")
            }
        }
        return failures
    }
}
