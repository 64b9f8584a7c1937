import ArgumentParser
import FoundationEssentials
import LiteVision
import LiteVisionModelStore

/// The arguments of `litevision models publish`, and the command's work.
package struct ModelsPublishArguments: ParsableArguments {
    /// The command's name and help.
    package static let configuration = CommandConfiguration(
        commandName: "publish",
        abstract: "Publish a .tflite file as the next version of a model (it becomes the latest).",
        discussion:
            "The registry refuses files that are not a classifier or detector LiteVision can run, with the reason.")

    /// The arguments, as ArgumentParser fills them.
    package init() {}

    @OptionGroup package var connection: RegistryConnection

    @Flag(
        inversion: .prefixedNo,
        help: "Make the model private (served only with a read token) or public; unchanged when not given.")
    package var `private`: Bool?

    @Flag(name: .long, help: "Print the registry's JSON answer.")
    package var json = false

    @Argument(help: "The model's name on the registry: letters, digits, '.', '_', '-'.")
    package var name: String

    @Argument(help: "The .tflite file.")
    package var model: String

    /// Runs the command: prints its result, or the registry's error with exit status 1.
    package func run() throws {
        let client = try connection.client()
        let answer = try RegistryAnswer.request { () throws(RegistryRequestError) in
            try client.publish(name, file: model, isPrivate: `private`)
        }
        if json { return Console.output(.json(String(decoding: answer, as: UTF8.self))) }
        let version = try RegistryAnswer.decode(RegistryAnswer.Model.Version.self, answer)
        Console.output("published \(name) version \(version.version) (\(version.size) bytes, sha256 \(version.sha256))")
    }
}
