import ArgumentParser
import FoundationEssentials
import LiteVisionCommandSupport
import LiteVisionRegistry
import LiteVisionSystem
import Logging

/// `litevision registry token`.
struct TokenCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "token", abstract: "Manage access tokens.",
        subcommands: [TokenCreateCommand.self, TokenListCommand.self, TokenRevokeCommand.self])
}

extension StorageOptions {
    /// Runs `body` on the registry of these options beside a running server (`--data`: no lock; `--database`: the
    /// schema created or migrated first if needed). Errors are printed and end the command with status 1.
    func withService<T: Sendable>(_ body: @escaping @Sendable (RegistryService) async throws -> T) async throws -> T {
        do {
            var logger = Logger(label: "litevision.registry")
            logger.logLevel = .warning
            if let postgres = try postgres(logger: logger, receivingUploads: false) {
                let service = RegistryService(metadata: postgres.metadata, blobs: postgres.blobs)
                return try await postgres.withPool {
                    _ = try await postgres.migrate()
                    return try await body(service)
                }
            }
            return try await body(try ModelRegistry(dataFolder: data ?? "", access: .shared).service)
        } catch {
            Console.error("litevision registry: \(error)")
            throw ExitCode(1)
        }
    }
}

/// `litevision registry token create`.
struct TokenCreateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "create",
        abstract: "Create an access token and print it (the only time it is shown; the registry keeps its hash).",
        discussion: """
            publish: publish, promote, roll out and delete versions, and read every model. read: read private \
            models (every one, or only --model). Works while the server runs. With --database, the database's \
            schema is created or migrated first if needed. Without --expires-in a token is valid until revoked.
            """)

    @OptionGroup var storage: StorageOptions

    @Option(name: .long, help: "publish or read.")
    var role: String

    @Option(name: .long, help: "Limit a read token to this model.")
    var model: String?

    @Option(
        name: .customLong("expires-in"),
        help: "How long the token is valid: a number of seconds, or with a unit: 90m, 12h, 30d (at most 100 years).")
    var expiresIn: String?

    func validate() throws {
        guard TokenRole(rawValue: role) != nil else { throw ValidationError("--role must be publish or read.") }
        if model != nil && role != "read" { throw ValidationError("--model goes with --role read.") }
        if let expiresIn, Self.seconds(expiresIn) == nil {
            throw ValidationError(
                "--expires-in must be a number of seconds or minutes, hours or days (90m, 12h, 30d), 1 second to 100 years; got \(expiresIn)."
            )
        }
    }

    /// The seconds of a lifetime such as `3600`, `90s`, `90m`, `12h` or `30d`; nil when malformed or out of range.
    static func seconds(_ text: String) -> Int? {
        let units: [Character: Int] = ["s": 1, "m": 60, "h": 3600, "d": 86400]
        let unit = text.last.flatMap { units[$0] }
        let digits = unit == nil ? Substring(text) : text.dropLast()
        guard !digits.isEmpty, digits.count <= 12, digits.allSatisfy(\.isASCII), let count = Int(digits),
            case let seconds = count * (unit ?? 1), (1...AccessTokens.maximumLifetime).contains(seconds)
        else { return nil }
        return seconds
    }

    func run() async throws {
        let role = TokenRole(rawValue: role)!
        let lifetime = expiresIn.flatMap(Self.seconds)
        let token = try await storage.withService { [model] service in
            try await service.createToken(role: role, model: model, lifetime: lifetime)
        }
        do {
            try Console.checkedOutput("\(token)")
        } catch {
            // The registry keeps only the token's hash: one never shown can be used by nobody.
            Console.error("litevision registry: \(error); the token just created was never shown: create another")
            throw ExitCode(1)
        }
    }
}

/// `litevision registry token list`.
struct TokenListCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List the access tokens: id, role, model, created, expires, last used (never the tokens).",
        discussion: """
            Last use is recorded at most once a minute. Times are UTC (ISO 8601). Revoke a token with \
            `token revoke ID`.
            """)

    @OptionGroup var storage: StorageOptions

    @Flag(name: .long, help: "One JSON object per token.")
    var json = false

    func run() async throws {
        let tokens = try await storage.withService { service in try await service.tokens() }
        let time = { (date: Date?) in date.map { $0.formatted(.iso8601) } ?? "-" }
        do {
            if json {
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.sortedKeys]
                encoder.dateEncodingStrategy = .iso8601
                for token in tokens {
                    try Console.checkedOutput(.json(String(decoding: try encoder.encode(token), as: UTF8.self)))
                }
                return
            }
            try Console.checkedOutput("ID\tROLE\tMODEL\tCREATED\tEXPIRES\tLAST USED")
            for token in tokens {
                try Console.checkedOutput(
                    "\(token.id)\t\(token.role)\t\(token.model ?? "*")\t\(time(token.created))\t\(time(token.expires))\t\(time(token.lastUsed))"
                )
            }
        } catch {
            Console.error("litevision registry: \(error)")
            throw ExitCode(1)
        }
    }
}

/// `litevision registry token revoke`.
struct TokenRevokeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "revoke",
        abstract: "Revoke an access token, by its id (see `token list`) or the token itself in a file.",
        discussion: """
            The token is deleted from the registry's storage: every server using it (every replica of a --database) \
            refuses it from its next request on.
            """)

    @OptionGroup var storage: StorageOptions

    @Argument(help: "The token's id, as `token list` shows it.")
    var id: Int64?

    @Option(name: .customLong("token-file"), help: "A file holding the token to revoke.")
    var tokenFile: String?

    func validate() throws {
        guard (id == nil) != (tokenFile == nil) else {
            throw ValidationError("Give the token to revoke: its ID or --token-file FILE (one of them).")
        }
    }

    func run() async throws {
        var token: String?
        if let tokenFile {
            do {
                let bytes = try FileContents.read(atPath: tokenFile, maximumSize: 4096)
                token = String(decoding: bytes, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            } catch {
                Console.error("litevision registry: the token file cannot be read: \(error)")
                throw ExitCode(1)
            }
        }
        let revoked = try await storage.withService { [id, token] service in
            try await service.revokeToken(id: id, token: token)
        }
        do {
            try Console.checkedOutput(
                "litevision registry: revoked token \(revoked.id) (\(revoked.role)\(revoked.model.map { " of \($0)" } ?? ""))"
            )
        } catch {
            Console.error("litevision registry: \(error) (the token is revoked)")
            throw ExitCode(1)
        }
    }
}
