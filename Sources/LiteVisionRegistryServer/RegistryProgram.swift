import ArgumentParser
import LiteVisionCommandSupport

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
            RemoteModelSource.registry.
            """,
        subcommands: [ServeCommand.self, TokenCommand.self, BackupCommand.self]
    )

    /// Runs the command; help that standard output cannot take ends with status 1, not with a success.
    static func main() async { await mainCheckingOutput() }
}
