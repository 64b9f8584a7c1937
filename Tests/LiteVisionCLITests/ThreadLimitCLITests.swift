import LiteVision
import LiteVisionTestSupport
import Testing

/// The bound on threads per inference on the command line: every thread is started for real, so an unbounded count
/// (`--threads 1000000`) would fill the process table. The commands refuse a count outside 1...maximum with a usage
/// error naming the bounds (the library's side is LiteVisionTests' `ThreadLimitTests`).
@Suite("Threads per inference are bounded on the command line")
struct ThreadLimitCLITests {
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
