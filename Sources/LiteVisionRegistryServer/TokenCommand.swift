import ArgumentParser
import LiteVisionRegistry

/// `litevision registry token`.
struct TokenCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "token", abstract: "Manage access tokens.", subcommands: [TokenCreateCommand.self])
}

/// `litevision registry token create`.
struct TokenCreateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "create",
        abstract: "Create an access token and print it (the only time it is shown; the registry keeps its hash).",
        discussion: """
            publish: publish, promote, roll out and delete versions, and read every model. read: read private \
            models (every one, or only --model). Works while the server runs.
            """)

    @Option(name: .long, help: "The registry's data folder.")
    var data: String

    @Option(name: .long, help: "publish or read.")
    var role: String

    @Option(name: .long, help: "Limit a read token to this model.")
    var model: String?

    func validate() throws {
        guard TokenRole(rawValue: role) != nil else { throw ValidationError("--role must be publish or read.") }
        if model != nil && role != "read" { throw ValidationError("--model goes with --role read.") }
    }

    func run() throws {
        do {
            let registry = try ModelRegistry(dataFolder: data, access: .shared)
            printLine(try registry.createToken(role: TokenRole(rawValue: role)!, model: model))
        } catch {
            printError("litevision registry: \(error)")
            throw ExitCode(1)
        }
    }
}
