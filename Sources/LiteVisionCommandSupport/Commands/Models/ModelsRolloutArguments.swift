import ArgumentParser
import FoundationEssentials
import LiteVision
import LiteVisionModelStore

/// The arguments of `litevision models rollout`, and the command's work.
package struct ModelsRolloutArguments: ParsableArguments {
    /// The command's name and help.
    package static let configuration = CommandConfiguration(
        commandName: "rollout",
        abstract: "Serve a version to a share of clients (staged rollout, A/B); --percent 0 ends it.",
        discussion: """
            A client's share is fixed by its id (the cache's client id, or --client-id), so each client gets the same \
            version every time while the percentage stays.
            """)

    /// The arguments, as ArgumentParser fills them.
    package init() {}

    @OptionGroup package var connection: RegistryConnection

    @Option(name: .long, help: "The share of clients, 0 to 100.")
    package var percent: Int

    @Argument(help: "The model's name.")
    package var name: String

    @Argument(help: "The version to roll out.")
    package var version: Int

    /// Checks the arguments before anything runs.
    package func validate() throws {
        guard (0...100).contains(percent) else { throw ValidationError("--percent must be 0 to 100, got \(percent).") }
    }

    /// Runs the command: prints its result, or the registry's error with exit status 1.
    package func run() throws {
        let client = try connection.client()
        let answer = try RegistryAnswer.request { () throws(RegistryRequestError) in
            try client.rollout(name, version: version, percent: percent)
        }
        Console.output(RegistryAnswer.line(try RegistryAnswer.decode(RegistryAnswer.Model.self, answer)))
    }
}
