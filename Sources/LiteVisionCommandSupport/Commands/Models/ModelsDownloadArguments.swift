import ArgumentParser
import FoundationEssentials
import LiteVision
import LiteVisionModelStore

/// The arguments of `litevision models download`, and the command's work.
package struct ModelsDownloadArguments: ParsableArguments {
    /// The command's name and help.
    package static let configuration = CommandConfiguration(
        commandName: "download",
        abstract: "Download the version of a model this machine gets into the model cache.",
        discussion: """
            Resumable (an interrupted download continues where it stopped), verified against the registry's SHA-256 \
            and installed atomically: a failed download leaves the previous version in place. When the newest \
            version is already there, nothing is transferred. The cache is --cache, else LITEVISION_MODEL_CACHE, else \
            ~/.cache/litevision/models.
            """)

    /// The arguments, as ArgumentParser fills them.
    package init() {}

    @OptionGroup package var connection: RegistryConnection

    @Option(name: .long, help: "The model cache folder.")
    package var cache: String?

    @Option(
        name: .customLong("client-id"),
        help: "The client id a rollout is decided by (default: the cache's own, made on first use).")
    package var clientID: String?

    @Flag(
        name: .customLong("no-cellular"),
        help: "Do not download over a cellular network (a modem interface, or one NetworkManager marks metered).")
    package var noCellular = false

    @Flag(
        name: .long,
        help:
            "Wait out network problems (retry after 1, 2, 4 … 60 s, for up to --wait-limit seconds) instead of failing."
    )
    package var wait = false

    @Option(
        name: .customLong("wait-limit"),
        help: "With --wait: give up after this many seconds (above 0, up to 2592000; default 86400).")
    package var waitLimit: Double = 86_400

    @Flag(name: .long, help: "Print one JSON object: name, version, sha256, path.")
    package var json = false

    @Argument(help: "The model's name.")
    package var name: String

    /// The longest `--wait-limit`: 30 days, far past any outage a download should wait out.
    static let maximumWaitLimit = 2_592_000.0

    /// Refuses a `--wait-limit` that is not a number of seconds from more than 0 to ``maximumWaitLimit``.
    package func validate() throws {
        guard waitLimit > 0, waitLimit <= Self.maximumWaitLimit else {
            throw ValidationError(
                "--wait-limit must be a number of seconds above 0, up to \(Int(Self.maximumWaitLimit)) (30 days), "
                    + "got \(waitLimit)")
        }
    }

    /// Runs the command: prints its result, or the registry's error with exit status 1.
    package func run() throws {
        try RemoteModelArguments.checkCache(cache)
        let model = try RemoteModelArguments.model(named: name, connection: connection)
        let remote = RemoteModelArguments.download(model, connection: connection, cache: cache, clientID: clientID) {
            downloader in
            downloader.allowsCellularAccess = !noCellular
            downloader.isBackground = wait
            downloader.backgroundTimeLimit = waitLimit
        }
        let installed = try RegistryAnswer.request { () throws(ModelDownloadError) in try remote.get() }
        if json {
            struct Output: Encodable {
                var name: String
                var version: Int?
                var sha256: String
                var path: String
            }
            let output = Output(name: name, version: installed.version, sha256: installed.sha256, path: installed.path)
            Console.output(.json(JSONRecord.encoded(output) ?? "{}"))  // texts and an integer: always encoded
        } else {
            Console.output(
                "\(name) version \(installed.version.map(String.init) ?? "?") (sha256 \(installed.sha256)): \(installed.path)"
            )
        }
    }
}
