import ArgumentParser
import LiteVisionSystem

/// `litevision-registry` (also run as `litevision registry`): the LiteVision model registry server and its
/// administration.
@main
struct RegistryProgram: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "litevision registry",
        abstract: "A LiteVision model registry: hosted models for ML Kit's ModelManager, on your own server.",
        discussion: """
            Everything lives in one data folder: registry.sqlite (models, versions, rollouts, token hashes) and \
            blobs/ (model files named by their SHA-256). Clients use `litevision models …` or LiteVision's \
            RegistryModelSource.
            """,
        subcommands: [ServeCommand.self, TokenCommand.self, BackupCommand.self]
    )

    /// ArgumentParser's `main()`, with the messages it prints itself (help, version, usage errors) written
    /// unbuffered and checked: help that standard output cannot take ends with status 1, not with a success.
    static func main() async {
        do {
            var command = try await asyncParseAsRoot()
            if var command = command as? AsyncParsableCommand {
                try await command.run()
            } else {
                try command.run()
            }
        } catch {
            let message = fullMessage(for: error)
            let status = exitCode(for: error)
            if message.isEmpty {
                // Nothing to say (`ExitCode`): the command has reported its failure itself.
            } else if status != .success {
                printError(message)
            } else {
                do {
                    try printLine(message)
                } catch {
                    printError("litevision-registry: \(error)")
                    Platform.exit(1)
                }
            }
            Platform.exit(status.rawValue)
        }
    }
}
