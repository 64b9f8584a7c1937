import ArgumentParser
import FoundationEssentials
import LiteVision
import LiteVisionModelStore

/// The arguments of `litevision models list`, and the command's work.
package struct ModelsListArguments: ParsableArguments {
    /// The command's name and help.
    package static let configuration = CommandConfiguration(
        commandName: "list", abstract: "List the registry's models.")

    /// The arguments, as ArgumentParser fills them.
    package init() {}

    @OptionGroup package var connection: RegistryConnection

    @Flag(name: .long, help: "Print the registry's JSON answer.")
    package var json = false

    /// Runs the command: prints its result, or the registry's error with exit status 1.
    package func run() throws {
        let client = try connection.client()
        let answer = try RegistryAnswer.request { () throws(RegistryRequestError) in try client.list() }
        if json { return Console.output(.json(String(decoding: answer, as: UTF8.self))) }
        struct Listing: Decodable { var models: [RegistryAnswer.Model] }
        let listing = try RegistryAnswer.decode(Listing.self, answer)
        if listing.models.isEmpty { Console.output("(no models)") }
        for model in listing.models { Console.output(RegistryAnswer.line(model)) }
    }
}
