import Foundation
import LiteVision
import LiteVisionTestSupport
import Testing

/// The bound on threads per inference: every thread is started for real, so an unbounded count (`--threads
/// 1000000`) would fill the process table. The library brings a count into 1...maximum; the commands refuse one
/// outside with a usage error naming the bounds.
@Suite("Threads per inference are bounded, in the library and on the command line")
struct ThreadLimitTests {
    @Test("ProcessingOptions.threadCount is brought into 1...maximumThreadCount (64, or the cores beyond 64)")
    func libraryBound() throws {
        let maximum = ProcessingOptions.maximumThreadCount
        #expect(maximum == max(64, ProcessInfo.processInfo.activeProcessorCount))
        var processing = ProcessingOptions()
        #expect((1...maximum).contains(processing.threadCount))
        processing.threadCount = -3
        #expect(processing.threadCount == 1)
        processing.threadCount = 1_000_000
        // Checked before any model is compiled with it: without the bound, the runtime would start that many threads.
        try #require(processing.threadCount == maximum)

        let options = CustomImageLabelerOptions(localModel: LocalModel(path: TestData.model("bird.tflite")))
        options.processing.threadCount = 1_000_000
        try #require(options.processing.threadCount == maximum)
        let labeler = try ImageLabeler(options: options)
        let labels = try labeler.results(in: VisionImage(contentsOfFile: TestData.image("bird.jpg")))
        #expect(labels.first?.text == "Ardea cinerea (Grey Heron)")
    }

    @Test(
        "--threads above the bound is a usage error naming it, for label, detect and track",
        arguments: ["label", "detect", "track"])
    func commandLineBound(command: String) throws {
        let maximum = ProcessingOptions.maximumThreadCount
        let input =
            command == "label"
            ? ["--model", TestData.model("bird.tflite"), TestData.image("bird.jpg")]
            : command == "detect"
                ? ["--model-dir", TestData.path("models"), TestData.image("bird.jpg")]
                : ["--model-dir", TestData.path("models"), TestData.path("video/cup.mp4")]
        for threads in [maximum + 1, 1_000_000] {
            let result = try LiteVisionExecutable.run([command, "--threads", String(threads)] + input)
            #expect(result.status == 64, "\(result.errors)")
            #expect(result.errors.contains("--threads must be between 1 and \(maximum)"), "\(result.errors)")
            #expect(result.output.isEmpty)
        }
        let help = try LiteVisionExecutable.run([command, "--help"])
        #expect(help.output.contains("1 to \(maximum)"), "\(help.output)")
    }
}
