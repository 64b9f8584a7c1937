import Foundation
import LiteVisionTestSupport
import Testing

/// Counts from the command line as large as Int allows (issue 9): `--max-results`, `--max-objects` and
/// `--max-labels` of Int.max or 2^31 - 1 mean "as many as the model gives" — no overflow trap, no allocation sized
/// by the number — and give the same answer as a limit just above what the model returns.
@Suite("litevision: huge counts on the command line")
struct HugeCountCLITests {
    static let huge = ["9223372036854775807", "2147483647"]

    @Test("label --max-results", arguments: huge)
    func labelMaxResults(_ count: String) throws {
        let arguments = ["label", "--json", "--threshold", "0", "--model", TestData.model("bird.tflite")]
        let photo = TestData.image("bird.jpg")
        let all = try LiteVisionExecutable.runMeasuringMemory(arguments + ["--max-results", count, photo])
        #expect(all.status == 0, "\(all.errors)")
        #expect(all.peakMegabytes < 1000, "peak memory \(all.peakMegabytes) MB")
        // bird.tflite has 965 classes: a limit above that is the same as no limit at all.
        let bounded = try LiteVisionExecutable.run(arguments + ["--max-results", "1000", photo])
        #expect(bounded.status == 0, "\(bounded.errors)")
        #expect(!all.output.isEmpty && all.output == bounded.output)
    }

    @Test("detect --max-objects and --max-labels", arguments: huge)
    func detectCounts(_ count: String) throws {
        let arguments =
            ["detect", "--json", "--multiple", "--model-dir", TestData.path("models")]
            + ["--model", TestData.model("object_labeler.tflite"), "--label-threshold", "0"]
        let photo = TestData.image("kite_and_cold.jpg")
        let all = try LiteVisionExecutable.runMeasuringMemory(
            arguments + ["--max-objects", count, "--max-labels", count, photo])
        #expect(all.status == 0, "\(all.errors)")
        #expect(all.peakMegabytes < 1000, "peak memory \(all.peakMegabytes) MB")
        let bounded = try LiteVisionExecutable.run(
            arguments + ["--max-objects", "100", "--max-labels", "100000", photo])
        #expect(bounded.status == 0, "\(bounded.errors)")
        #expect(!all.output.isEmpty && all.output == bounded.output)
    }
}
