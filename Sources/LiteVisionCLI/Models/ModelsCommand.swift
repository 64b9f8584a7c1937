import ArgumentParser
import LiteVisionCommandSupport

/// `litevision models`: a LiteVision model registry's models, from the client side.
struct ModelsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "models",
        abstract: "Publish, list, describe, download and manage models on a LiteVision model registry.",
        discussion: """
            The registry is `litevision registry serve`. Its address comes from --registry or the LITEVISION_REGISTRY \
            setting. Changing a model (publish, delete, promote, rollout) needs a publish token in --token-file \
            (made with `litevision registry token create --role publish`); reading a private model needs a read token.
            """,
        subcommands: [
            ModelsPublishCommand.self, ModelsListCommand.self, ModelsInfoCommand.self, ModelsDownloadCommand.self,
            ModelsDeleteCommand.self, ModelsPromoteCommand.self, ModelsRolloutCommand.self,
        ]
    )
}

/// `litevision models publish` (``ModelsPublishArguments/run()``).
struct ModelsPublishCommand: ParsableCommand {
    static let configuration = ModelsPublishArguments.configuration

    @OptionGroup var arguments: ModelsPublishArguments

    func run() throws { try arguments.run() }
}

/// `litevision models list` (``ModelsListArguments/run()``).
struct ModelsListCommand: ParsableCommand {
    static let configuration = ModelsListArguments.configuration

    @OptionGroup var arguments: ModelsListArguments

    func run() throws { try arguments.run() }
}

/// `litevision models info` (``ModelsInfoArguments/run()``).
struct ModelsInfoCommand: ParsableCommand {
    static let configuration = ModelsInfoArguments.configuration

    @OptionGroup var arguments: ModelsInfoArguments

    func run() throws { try arguments.run() }
}

/// `litevision models delete` (``ModelsDeleteArguments/run()``).
struct ModelsDeleteCommand: ParsableCommand {
    static let configuration = ModelsDeleteArguments.configuration

    @OptionGroup var arguments: ModelsDeleteArguments

    func run() throws { try arguments.run() }
}

/// `litevision models promote` (``ModelsPromoteArguments/run()``).
struct ModelsPromoteCommand: ParsableCommand {
    static let configuration = ModelsPromoteArguments.configuration

    @OptionGroup var arguments: ModelsPromoteArguments

    func run() throws { try arguments.run() }
}

/// `litevision models rollout` (``ModelsRolloutArguments/run()``).
struct ModelsRolloutCommand: ParsableCommand {
    static let configuration = ModelsRolloutArguments.configuration

    @OptionGroup var arguments: ModelsRolloutArguments

    func run() throws { try arguments.run() }
}

/// `litevision models download` (``ModelsDownloadArguments/run()``).
struct ModelsDownloadCommand: ParsableCommand {
    static let configuration = ModelsDownloadArguments.configuration

    @OptionGroup var arguments: ModelsDownloadArguments

    func run() throws { try arguments.run() }
}
