import Foundation
import LiteVision
import LiteVisionImaging
import LiteVisionTestSupport
import Testing

/// Damaged photos (issue 9) in the library: strict decoding by default, lenient on request (the commands' side,
/// damaged videos included, is LiteVisionCLITests' `DamagedInputCLITests`).
@Suite("Damaged photos in the library")
struct DamagedInputTests {
    static let bird = TestData.model("bird.tflite")

    /// Whether decoding is refused for damage in the image data (strict) rather than anything else.
    static func refusedAsDamaged(_ error: VisionError) -> Bool {
        guard case .imageDecoding(let decoding) = error else { return false }
        switch decoding {
        case .corrupt, .truncated: return true
        default: return false
        }
    }

    @Test(
        "the labeler refuses a damaged JPEG unless the options allow damaged data",
        arguments: DamagedFiles.JPEGDamage.allCases)
    func labelerOptions(_ damage: DamagedFiles.JPEGDamage) throws {
        let path = try DamagedFiles.damagedBird(damage, for: "library")
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
}
