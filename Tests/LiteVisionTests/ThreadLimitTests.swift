import Foundation
import LiteVision
import LiteVisionTestSupport
import Testing

/// The bound on threads per inference: every thread is started for real, so an unbounded count would fill the
/// process table. The library brings a count into 1...maximum (the commands' side is LiteVisionCLITests'
/// `ThreadLimitCLITests`).
@Suite("Threads per inference are bounded in the library")
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
}
