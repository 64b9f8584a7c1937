import Foundation
import LiteVisionTestSupport
import Testing

/// Standard output that cannot be written (here /dev/full, a device that is always full) ends every command with
/// status 1 and a message, instead of a success with the results lost (issue 9).
@Suite("litevision: standard output that cannot be written")
struct LostOutputCLITests {
    static let commands: [[String]] = [
        ["label", "--model", TestData.model("bird.tflite"), TestData.image("bird.jpg")],
        ["label", "--json", "--model", TestData.model("bird.tflite"), TestData.image("bird.jpg")],
        ["detect", "--model-dir", TestData.path("models"), TestData.image("dogs.jpg")],
        ["track", "--model-dir", TestData.path("models"), TestData.path("video/cup.mp4")],
    ]

    @Test("each command, its output sent to /dev/full", arguments: 0..<commands.count)
    func fullDevice(_ index: Int) throws {
        let (status, message) = try FullOutput.run(LiteVisionExecutable.path, Self.commands[index])
        #expect(status == 1, "\(Self.commands[index]): \(message)")
        #expect(message.contains("standard output could not be written: No space left on device"), "\(message)")

        // The same command with somewhere to write succeeds: the failure above is the output's.
        let normal = try LiteVisionExecutable.run(Self.commands[index])
        #expect(normal.status == 0 && !normal.output.isEmpty, "\(normal.errors)")
    }

    static let helpRequests: [[String]] = [["--help"], ["label", "--help"], ["track", "--help"], ["help", "detect"]]

    @Test("help sent to /dev/full: status 1, not a success with the help lost", arguments: 0..<helpRequests.count)
    func helpOnFullDevice(_ index: Int) throws {
        let arguments = Self.helpRequests[index]
        let (status, message) = try FullOutput.run(LiteVisionExecutable.path, arguments)
        #expect(status == 1, "\(arguments): \(message)")
        #expect(message.contains("standard output could not be written: No space left on device"), "\(message)")
        let shown = try LiteVisionExecutable.run(arguments)
        #expect(shown.status == 0 && shown.output.contains("USAGE:"), "\(shown.errors)")
    }

    @Test("litevision-media's own help sent to /dev/full: status 1")
    func mediaHelpOnFullDevice() throws {
        let media = URL(fileURLWithPath: LiteVisionExecutable.path).deletingLastPathComponent()
            .appendingPathComponent("litevision-media").path
        let (status, message) = try FullOutput.run(media, ["track", "--help"])
        #expect(status == 1, "\(message)")
        #expect(message.contains("standard output could not be written: No space left on device"), "\(message)")
        let shown = try LiteVisionExecutable.run(["track", "--help"], program: media)
        #expect(shown.status == 0 && shown.output.contains("USAGE:"), "\(shown.errors)")
    }
}
