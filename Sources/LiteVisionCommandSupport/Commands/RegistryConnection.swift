import ArgumentParser
import FoundationEssentials
import LiteVision
import LiteVisionModelStore
import LiteVisionSystem

/// The options that say which registry to talk to and how: `--registry`, `--token-file`, `--cacert`, and the time
/// limits `--request-timeout` and `--download-timeout`.
package struct RegistryConnection: ParsableArguments {
    /// The arguments, as ArgumentParser fills them.
    package init() {}

    @Option(name: .long, help: "The registry's address (default: the LITEVISION_REGISTRY setting).")
    package var registry: String?

    @Option(
        name: .customLong("token-file"),
        help:
            "A file whose first line is a registry token (publish token to change models; read token for private ones)."
    )
    package var tokenFile: String?

    @Option(
        name: .long,
        help:
            "A PEM file of certificates to trust for a registry with its own certificate (default: LITEVISION_CA_FILE)."
    )
    package var cacert: String?

    @Option(
        name: .customLong("request-timeout"),
        help: ArgumentHelp(
            "Seconds a registry request other than a model file's transfer may take in all (default 60).",
            valueName: "seconds"))
    package var requestTimeout: Int?

    /// The seconds a registry request may take: `--request-timeout`, else 60.
    package var requestDeadline: Int { requestTimeout ?? 60 }

    @Option(
        name: .customLong("download-timeout"),
        help: ArgumentHelp(
            "Seconds a model file's download may take in all (default: no limit; slower than 1 KB/s for 30 s fails).",
            valueName: "seconds"))
    package var downloadTimeout: Int?

    package func validate() throws {
        if let requestTimeout, requestTimeout < 1 {
            throw ValidationError("--request-timeout must be at least 1 second, got \(requestTimeout).")
        }
        if let downloadTimeout, downloadTimeout < 1 {
            throw ValidationError("--download-timeout must be at least 1 second, got \(downloadTimeout).")
        }
    }

    /// The registry's address: `--registry`, else `LITEVISION_REGISTRY`; exit status 2 with a message when neither.
    package func address() throws -> String {
        if let registry { return registry }
        if let configured = ProcessInfo.processInfo.environment["LITEVISION_REGISTRY"], !configured.isEmpty {
            return configured
        }
        Console.error("litevision: give the registry's address with --registry URL (or set LITEVISION_REGISTRY)")
        throw ExitCode(2)
    }

    /// The token in `--token-file`, if given: its first line, without surrounding blanks. Exit status 2 with a
    /// message when the file cannot be read or holds no token.
    package func token() throws -> String? {
        guard let tokenFile else { return nil }
        let bytes: [UInt8]
        do {
            bytes = try FileContents.read(atPath: tokenFile, maximumSize: 4096)
        } catch {
            Console.error("litevision: the token file cannot be read: \(error)")
            throw ExitCode(2)
        }
        let line = String(decoding: bytes.prefix { $0 != UInt8(ascii: "\n") }, as: UTF8.self)
        let token = String(line.drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
        guard !token.isEmpty, token.utf8.allSatisfy({ $0 > 32 && $0 < 127 }) else {
            Console.error("litevision: \(tokenFile) holds no token on its first line")
            throw ExitCode(2)
        }
        return token
    }

    /// The trusted certificates: `--cacert`, else `LITEVISION_CA_FILE`.
    package var caFile: String? { cacert ?? TransferSettings.configuredCAFile }

    /// A client of the registry with these options.
    package func client() throws -> RegistryClient {
        var client = RegistryClient(registry: try address(), token: try token(), caFile: caFile)
        client.settings.requestDeadline = requestDeadline
        return client
    }

    /// `downloader` with the certificates and time limits of these options.
    package func configure(_ downloader: inout ModelDownloader) {
        downloader.settings.caFile = caFile
        downloader.settings.requestDeadline = requestDeadline
        downloader.settings.downloadDeadline = downloadTimeout
    }
}
