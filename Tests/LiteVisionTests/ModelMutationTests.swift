import Foundation
import LiteVision
import LiteVisionTestSupport
import Testing

/// Seeded mutants of every shared model (bit flips, byte overwrites and truncations, mostly in the FlatBuffer's
/// tables at the start of the file and in the metadata and zip at its end), each loaded in this process by
/// the feature that uses such a model and run on a photo: each must give a result or a `VisionError`, never
/// a signal, and the process must stay under 1 GB.
///
/// `scripts/test.sh` runs this suite in a process of its own, so that the peak memory measured is its own;
/// `LITEVISION_MUTANTS` sets the number of mutants (2,000 by default; `scripts/fuzz.sh mutants` runs more).
@Suite("Mutated models: a result or a VisionError, never a crash", .serialized)
struct ModelMutationTests {
    enum Use: String { case labeler, detector, customClassifier }

    static let models: [(name: String, use: Use)] = [
        ("bird.tflite", .labeler), ("object_labeler.tflite", .customClassifier),
        ("mobilenet_v1_025_float.tflite", .labeler), ("automl_flowers.tflite", .labeler),
        ("coco_ssd_mobilenet_v1.tflite", .detector), ("food_ssd_mobilenet_v2_tf2.tflite", .detector),
        ("mobile_object_localizer_v1.tflite", .detector), ("mobile_object_localizer_v1_nometadata.tflite", .detector),
        ("salad_detector_automl.tflite", .detector),
    ]

    static var mutantCount: Int {
        ProcessInfo.processInfo.environment["LITEVISION_MUTANTS"].flatMap(Int.init) ?? 2000
    }

    /// Flips a bit, overwrites a byte or cuts the file, at a position chosen mostly among the tables.
    static func mutate(_ original: [UInt8], using generator: inout SeededGenerator) -> [UInt8] {
        var bytes = original
        let region = Int.random(in: 0..<10, using: &generator)
        let position: Int
        switch region {
        case 0..<6: position = Int.random(in: 0..<min(bytes.count, 16_384), using: &generator)
        case 6..<8: position = Int.random(in: max(0, bytes.count - 16_384)..<bytes.count, using: &generator)
        default: position = Int.random(in: 0..<bytes.count, using: &generator)
        }
        switch Int.random(in: 0..<5, using: &generator) {
        case 0, 1: bytes[position] ^= 1 << UInt8.random(in: 0..<8, using: &generator)
        case 2, 3: bytes[position] = UInt8.random(in: 0...255, using: &generator)
        default: bytes.removeSubrange(position...)
        }
        return bytes
    }

    /// Makes the feature `use` from `bytes` and runs it on `image`.
    static func run(_ bytes: [UInt8], name: String, use: Use, image: VisionImage) throws(VisionError) {
        let labels = name == "automl_flowers.tflite" ? TestData.model("automl_flowers.labels.txt") : nil
        let model = LocalModel(bytes: bytes, name: "mutant of \(name)", labelsPath: labels)
        switch use {
        case .labeler:
            _ = try ImageLabeler(options: CustomImageLabelerOptions(localModel: model)).results(in: image)
        case .detector:
            let options = ObjectDetectorOptions()
            options.detectorMode = .singleImage
            options.shouldEnableMultipleObjects = true
            options.detectorModel = model
            _ = try ObjectDetector(options: options).results(in: image)
        case .customClassifier:
            let options = CustomObjectDetectorOptions(localModel: model)
            options.modelDirectory = TestData.path("models")
            options.detectorMode = .singleImage
            options.shouldEnableClassification = true
            _ = try ObjectDetector(options: options).results(in: image)
        }
    }

    @Test func everyMutantEndsWithAResultOrAVisionError() throws {
        let image = try VisionImage(contentsOfFile: TestData.image("dogs.jpg"))
        var generator = SeededGenerator(seed: 0x4D55_5441_4E54)
        let perModel = (Self.mutantCount + Self.models.count - 1) / Self.models.count
        var accepted = 0, refused = 0
        for (name, use) in Self.models {
            let original = Array(try Data(contentsOf: URL(fileURLWithPath: TestData.model(name))))
            try Self.run(original, name: name, use: use, image: image)
            for _ in 0..<perModel {
                let mutant = Self.mutate(original, using: &generator)
                do {
                    try Self.run(mutant, name: name, use: use, image: image)
                    accepted += 1
                } catch {
                    refused += 1
                }
            }
        }
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        let peakMegabytes = Int(usage.ru_maxrss) / 1024
        print(
            "model mutants: \(accepted + refused) (\(accepted) ran, \(refused) refused), peak RSS \(peakMegabytes) MB")
        #expect(accepted > Self.mutantCount / 10, "most mutants of the weights should still run")
        #expect(refused > Self.mutantCount / 10, "most mutants of the tables should be refused")
        #expect(peakMegabytes < 1024)
    }
}
