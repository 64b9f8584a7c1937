import ArgumentParser
import LiteVisionSystem

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
        let program = Self.siblingProgram("litevision-registry")
        var argv: [UnsafeMutablePointer<CChar>?] = ([program] + arguments).map { strdup($0) } + [nil]
        execv(program, &argv)
        let reason = errorDescription(errno)
        Console.error(
            "litevision: \(program) cannot be started (\(reason)); build it with `swift build -c release --product litevision-registry`, which puts it next to litevision"
        )
        throw ExitCode(2)
    }

    /// The path of `name` in the folder of the running executable.
    static func siblingProgram(_ name: String) -> String {
        Subprocess.executableDirectory().map { $0 + "/" + name } ?? name
    }
}
