import ArgumentParser
import FoundationEssentials
import LiteVision
import LiteVisionModelStore

/// The arguments of `litevision models delete`, and the command's work.
package struct ModelsDeleteArguments: ParsableArguments {
    /// The command's name and help.
    package static let configuration = CommandConfiguration(
        commandName: "delete", abstract: "Delete a version of a model (the latest moves to the newest remaining one).")

    /// The arguments, as ArgumentParser fills them.
    package init() {}

    @OptionGroup package var connection: RegistryConnection

    @Argument(help: "The model's name.")
    package var name: String

    @Argument(help: "The version to delete.")
    package var version: Int

    /// Runs the command: prints its result, or the registry's error with exit status 1.
    package func run() throws {
        let client = try connection.client()
        try RegistryAnswer.request { () throws(RegistryRequestError) in try client.delete(name, version: version) }
        Console.output("deleted \(name) version \(version)")
    }
}
