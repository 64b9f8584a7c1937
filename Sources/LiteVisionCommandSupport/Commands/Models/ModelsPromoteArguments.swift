import ArgumentParser
import FoundationEssentials
import LiteVision
import LiteVisionModelStore

/// The arguments of `litevision models promote`, and the command's work.
package struct ModelsPromoteArguments: ParsableArguments {
    /// The command's name and help.
    package static let configuration = CommandConfiguration(
        commandName: "promote", abstract: "Make a version the latest (a rollback when it is older).")

    /// The arguments, as ArgumentParser fills them.
    package init() {}

    @OptionGroup package var connection: RegistryConnection

    @Argument(help: "The model's name.")
    package var name: String

    @Argument(help: "The version clients get from now on.")
    package var version: Int

    /// Runs the command: prints its result, or the registry's error with exit status 1.
    package func run() throws {
        let client = try connection.client()
        let answer = try RegistryAnswer.request { () throws(RegistryRequestError) in
            try client.promote(name, version: version)
        }
        Console.output(RegistryAnswer.line(try RegistryAnswer.decode(RegistryAnswer.Model.self, answer)))
    }
}
