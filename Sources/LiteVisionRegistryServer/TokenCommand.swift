import ArgumentParser
import LiteVisionRegistry
import Logging

/// `litevision registry token`.
struct TokenCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "token", abstract: "Manage access tokens.", subcommands: [TokenCreateCommand.self])
}

/// `litevision registry token create`.
struct TokenCreateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "create",
        abstract: "Create an access token and print it (the only time it is shown; the registry keeps its hash).",
        discussion: """
            publish: publish, promote, roll out and delete versions, and read every model. read: read private \
            models (every one, or only --model). Works while the server runs. With --database, the database's \
            schema is created or migrated first if needed.
            """)

    @OptionGroup var storage: StorageOptions

    @Option(name: .long, help: "publish or read.")
    var role: String

    @Option(name: .long, help: "Limit a read token to this model.")
    var model: String?

    func validate() throws {
        guard TokenRole(rawValue: role) != nil else { throw ValidationError("--role must be publish or read.") }
        if model != nil && role != "read" { throw ValidationError("--model goes with --role read.") }
    }

    func run() async throws {
        let role = TokenRole(rawValue: role)!
        let token: String
        do {
            var logger = Logger(label: "litevision.registry")
            logger.logLevel = .warning
            if let postgres = try storage.postgres(logger: logger, receivingUploads: false) {
                let service = RegistryService(metadata: postgres.metadata, blobs: postgres.blobs)
                token = try await postgres.withPool { [model] in
                    _ = try await postgres.migrate()
                    return try await service.createToken(role: role, model: model)
                }
            } else {
                let registry = try ModelRegistry(dataFolder: storage.data ?? "", access: .shared)
                token = try registry.createToken(role: role, model: model)
            }
        } catch {
            printError("litevision registry: \(error)")
            throw ExitCode(1)
        }
        do {
            try printLine("\(token)")
        } catch {
            // The registry keeps only the token's hash: one never shown can be used by nobody.
            printError("litevision registry: \(error); the token just created was never shown: create another")
            throw ExitCode(1)
        }
    }
}
