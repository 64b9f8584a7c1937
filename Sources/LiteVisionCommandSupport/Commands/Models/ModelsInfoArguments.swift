import ArgumentParser
import FoundationEssentials
import LiteVision
import LiteVisionModelStore

/// The arguments of `litevision models info`, and the command's work.
package struct ModelsInfoArguments: ParsableArguments {
    /// The command's name and help.
    package static let configuration = CommandConfiguration(
        commandName: "info", abstract: "Describe a model: its versions, the latest, a rollout, its metadata.")

    /// The arguments, as ArgumentParser fills them.
    package init() {}

    @OptionGroup package var connection: RegistryConnection

    @Option(name: .customLong("client-id"), help: "Show the version the client with this id gets.")
    package var clientID: String?

    @Flag(name: .long, help: "Print the registry's JSON answer (with each version's model summary).")
    package var json = false

    @Argument(help: "The model's name.")
    package var name: String

    /// Runs the command: prints its result, or the registry's error with exit status 1.
    package func run() throws {
        let client = try connection.client()
        let answer = try RegistryAnswer.request { () throws(RegistryRequestError) in
            try client.info(name, clientID: clientID)
        }
        if json { return Console.output(.json(String(decoding: answer, as: UTF8.self))) }
        let model = try RegistryAnswer.decode(RegistryAnswer.Model.self, answer)
        Console.output(RegistryAnswer.line(model))
        for version in model.versions ?? [] {
            Console.output(
                "  v\(version.version)  \(version.size) bytes  sha256 \(version.sha256)  \(version.created)")
        }
    }
}
