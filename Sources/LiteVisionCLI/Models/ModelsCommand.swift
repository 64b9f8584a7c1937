import ArgumentParser
import LiteVisionCommandSupport
import FoundationEssentials
import LiteVision
import LiteVisionModelStore

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

/// What the registry says about models (the fields the commands print).
struct RegistryModel: Decodable {
    struct Version: Decodable {
        var version: Int
        var sha256: String
        var size: Int
        var created: String
    }

    var name: String
    var latestVersion: Int?
    var rolloutVersion: Int?
    var rolloutPercent: Int
    var isPrivate: Bool?
    var versions: [Version]?
    var served: Version?
}

extension ModelsCommand {
    /// Runs a registry request: the answer, or the error printed and exit status 1.
    static func request<T>(_ body: () throws(ModelDownloadError) -> T) throws -> T {
        do {
            return try body()
        } catch {
            Console.error("litevision: \(error)")
            throw ExitCode(1)
        }
    }

    /// Decodes the registry's JSON answer; exit status 1 when it is not what a registry sends.
    static func decode<T: Decodable>(_ type: T.Type, _ bytes: [UInt8]) throws -> T {
        guard let value = try? JSONDecoder().decode(type, from: Data(bytes)) else {
            Console.error("litevision: the registry's answer is not the JSON a LiteVision registry sends")
            throw ExitCode(1)
        }
        return value
    }

    /// One line describing a model.
    static func line(_ model: RegistryModel) -> ConsoleText {
        var text: ConsoleText = "\(model.name)  latest \(model.latestVersion.map(String.init) ?? "-")"
        if let rollout = model.rolloutVersion, model.rolloutPercent > 0 {
            text.append("  rollout v\(rollout) to \(model.rolloutPercent)%")
        }
        if model.isPrivate == true { text.append("  private") }
        return text
    }
}

/// `litevision models publish`.
struct ModelsPublishCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "publish",
        abstract: "Publish a .tflite file as the next version of a model (it becomes the latest).",
        discussion:
            "The registry refuses files that are not a classifier or detector LiteVision can run, with the reason.")

    @OptionGroup var connection: RegistryConnection

    @Flag(
        inversion: .prefixedNo,
        help: "Make the model private (served only with a read token) or public; unchanged when not given.")
    var `private`: Bool?

    @Flag(name: .long, help: "Print the registry's JSON answer.")
    var json = false

    @Argument(help: "The model's name on the registry: letters, digits, '.', '_', '-'.")
    var name: String

    @Argument(help: "The .tflite file.")
    var model: String

    func run() throws {
        let client = try connection.client()
        let answer = try ModelsCommand.request { () throws(ModelDownloadError) in
            try client.publish(name, file: model, isPrivate: `private`)
        }
        if json { return Console.output(.json(String(decoding: answer, as: UTF8.self))) }
        let version = try ModelsCommand.decode(RegistryModel.Version.self, answer)
        Console.output("published \(name) version \(version.version) (\(version.size) bytes, sha256 \(version.sha256))")
    }
}

/// `litevision models list`.
struct ModelsListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "List the registry's models.")

    @OptionGroup var connection: RegistryConnection

    @Flag(name: .long, help: "Print the registry's JSON answer.")
    var json = false

    func run() throws {
        let client = try connection.client()
        let answer = try ModelsCommand.request { () throws(ModelDownloadError) in try client.list() }
        if json { return Console.output(.json(String(decoding: answer, as: UTF8.self))) }
        struct Listing: Decodable { var models: [RegistryModel] }
        let listing = try ModelsCommand.decode(Listing.self, answer)
        if listing.models.isEmpty { Console.output("(no models)") }
        for model in listing.models { Console.output(ModelsCommand.line(model)) }
    }
}

/// `litevision models info`.
struct ModelsInfoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "info", abstract: "Describe a model: its versions, the latest, a rollout, its metadata.")

    @OptionGroup var connection: RegistryConnection

    @Option(name: .customLong("client-id"), help: "Show the version the client with this id gets.")
    var clientID: String?

    @Flag(name: .long, help: "Print the registry's JSON answer (with each version's model summary).")
    var json = false

    @Argument(help: "The model's name.")
    var name: String

    func run() throws {
        let client = try connection.client()
        let answer = try ModelsCommand.request { () throws(ModelDownloadError) in
            try client.info(name, clientID: clientID)
        }
        if json { return Console.output(.json(String(decoding: answer, as: UTF8.self))) }
        let model = try ModelsCommand.decode(RegistryModel.self, answer)
        Console.output(ModelsCommand.line(model))
        for version in model.versions ?? [] {
            Console.output(
                "  v\(version.version)  \(version.size) bytes  sha256 \(version.sha256)  \(version.created)")
        }
    }
}

/// `litevision models delete`.
struct ModelsDeleteCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "delete", abstract: "Delete a version of a model (the latest moves to the newest remaining one).")

    @OptionGroup var connection: RegistryConnection

    @Argument(help: "The model's name.")
    var name: String

    @Argument(help: "The version to delete.")
    var version: Int

    func run() throws {
        let client = try connection.client()
        try ModelsCommand.request { () throws(ModelDownloadError) in try client.delete(name, version: version) }
        Console.output("deleted \(name) version \(version)")
    }
}

/// `litevision models promote`.
struct ModelsPromoteCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "promote", abstract: "Make a version the latest (a rollback when it is older).")

    @OptionGroup var connection: RegistryConnection

    @Argument(help: "The model's name.")
    var name: String

    @Argument(help: "The version clients get from now on.")
    var version: Int

    func run() throws {
        let client = try connection.client()
        let answer = try ModelsCommand.request { () throws(ModelDownloadError) in
            try client.promote(name, version: version)
        }
        Console.output(ModelsCommand.line(try ModelsCommand.decode(RegistryModel.self, answer)))
    }
}

/// `litevision models rollout`.
struct ModelsRolloutCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rollout",
        abstract: "Serve a version to a share of clients (staged rollout, A/B); --percent 0 ends it.",
        discussion: """
            A client's share is fixed by its id (the cache's client id, or --client-id), so each client gets the same \
            version every time while the percentage stays.
            """)

    @OptionGroup var connection: RegistryConnection

    @Option(name: .long, help: "The share of clients, 0 to 100.")
    var percent: Int

    @Argument(help: "The model's name.")
    var name: String

    @Argument(help: "The version to roll out.")
    var version: Int

    func validate() throws {
        guard (0...100).contains(percent) else { throw ValidationError("--percent must be 0 to 100, got \(percent).") }
    }

    func run() throws {
        let client = try connection.client()
        let answer = try ModelsCommand.request { () throws(ModelDownloadError) in
            try client.rollout(name, version: version, percent: percent)
        }
        Console.output(ModelsCommand.line(try ModelsCommand.decode(RegistryModel.self, answer)))
    }
}
