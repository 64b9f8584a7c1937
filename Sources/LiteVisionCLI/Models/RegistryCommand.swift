import ArgumentParser
import LiteVisionCommandSupport

/// `litevision registry …`: runs the model registry server's program, `litevision-registry`, which is kept apart
/// so that the HTTP server and its database are not loaded by every `litevision` command.
struct RegistryCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "registry",
        abstract: "Run a LiteVision model registry: serve, token create, backup (see `litevision registry help`).",
        discussion: """
            These commands are the program litevision-registry, installed next to litevision; \
            `litevision registry ARGS` runs `litevision-registry ARGS`.
            """)

    @Argument(parsing: .captureForPassthrough, help: "The registry command and its options.")
    var arguments: [String] = []

    func run() throws {
        try SiblingProgram.exec(SiblingProgram.registry, arguments: arguments)
    }
}
