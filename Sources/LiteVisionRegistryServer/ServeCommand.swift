import ArgumentParser
import Hummingbird
import Logging
import LiteVisionCommandSupport
import LiteVisionRegistry
import LiteVisionRegistryPostgres
import ServiceLifecycle

/// `litevision registry serve`.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve the registry's HTTP API.",
        discussion: """
            Stops gracefully on SIGINT or SIGTERM. Connections with no request for --idle-timeout seconds, and \
            requests on which no byte moves for --stall-timeout seconds (a stalled upload, a client that stops \
            reading), are closed. At most --max-connections connections are open at once. The data folder is \
            made private (0700, files 0600). Uploads above --upload-limit bytes are refused as soon as they pass it. Only one \
            server may use a data folder at a time; any number may share a --database (replicas behind a load \
            balancer). GET /health answers 200 while the process runs; GET /ready answers 200 when the storage is \
            reachable and its schema ready, else 503.
            """)

    @OptionGroup var storage: StorageOptions

    @Option(name: .long, help: "The address to listen on.")
    var host = "127.0.0.1"

    @Option(name: .long, help: "The port to listen on (0: any free port, printed).")
    var port = 8470

    @Option(name: .customLong("tls-cert"), help: "A PEM certificate chain: serve HTTPS (with --tls-key).")
    var tlsCertificate: String?

    @Option(name: .customLong("tls-key"), help: "The PEM private key of --tls-cert.")
    var tlsKey: String?

    @Option(name: .customLong("upload-limit"), help: "The largest model file accepted, in bytes.")
    var uploadLimit = 200_000_000

    @Option(
        name: .customLong("blob-memory"),
        help: "Bytes of model files kept in memory for downloads (each file at most 32 MiB; 0: none).")
    var blobMemory = 64 << 20

    @Option(name: .customLong("idle-timeout"), help: "Seconds a connection may wait for its next request.")
    var idleTimeout: Int64 = 60

    @Option(name: .customLong("stall-timeout"), help: "Seconds a request may go without a byte moving.")
    var stallTimeout: Int64 = 60

    @Option(
        name: .customLong("max-connections"),
        help: """
            Connections open at once (more wait until one closes); one whose client stops reading a download holds \
            about 232 KiB (192 KiB of the file). Lowered to what the open-file limit allows (two descriptors each).
            """)
    var maximumConnections = RegistryServer.Limits.defaultMaximumConnections

    @Option(
        name: .customLong("upload-trial-timeout"),
        help: ArgumentHelp(
            "Run each upload once, as clients will, and refuse it when that takes longer (default 10; 0: no trial "
                + "run, e.g. without the LiteRT runtime).", valueName: "seconds"))
    var uploadTrialTimeout = RegistryService.defaultUploadTrialTimeout

    @Option(
        name: .customLong("log-level"), help: "trace, debug (every request), info, notice, warning, error or critical.")
    var logLevel = "info"

    func validate() throws {
        guard Logger.Level(rawValue: logLevel) != nil else {
            throw ValidationError("--log-level must be trace, debug, info, notice, warning, error or critical.")
        }
        if (tlsCertificate == nil) != (tlsKey == nil) {
            throw ValidationError("--tls-cert and --tls-key go together.")
        }
        guard (0...65535).contains(port) else { throw ValidationError("--port must be 0 to 65535, got \(port).") }
        // Uploads are read back into memory to be checked: at most 2 GB.
        guard (1...2_000_000_000).contains(uploadLimit) else {
            throw ValidationError("--upload-limit must be 1 to 2000000000 bytes, got \(uploadLimit).")
        }
        guard (0...(1 << 40)).contains(blobMemory) else {
            throw ValidationError("--blob-memory must be 0 or more bytes.")
        }
        guard idleTimeout > 0, stallTimeout > 0, idleTimeout <= 86400, stallTimeout <= 86400 else {
            throw ValidationError("--idle-timeout and --stall-timeout must be 1 to 86400 seconds.")
        }
        guard (1...1_000_000).contains(maximumConnections) else {
            throw ValidationError("--max-connections must be 1 to 1000000, got \(maximumConnections).")
        }
        guard uploadTrialTimeout.isFinite, (0...3600).contains(uploadTrialTimeout) else {
            throw ValidationError("--upload-trial-timeout must be 0 to 3600 seconds, got \(uploadTrialTimeout).")
        }
    }

    func run() async throws {
        var logger = Logger(label: "litevision.registry")
        logger.logLevel = Logger.Level(rawValue: logLevel) ?? .info
        let (opened, services, served, postgres) = try openStorage(logger: logger)
        var service = opened
        service.uploadTrialTimeout = uploadTrialTimeout > 0 ? uploadTrialTimeout : nil
        let tls = try tlsCertificate.map { certificate in
            do {
                return try RegistryServer.tlsConfiguration(certificate: certificate, key: tlsKey ?? "")
            } catch {
                Console.error("litevision registry: the TLS certificate or key cannot be used: \(error)")
                throw ExitCode(1)
            }
        }
        let scheme = tls == nil ? "http" : "https"
        let connections = FileLimit.connections(wanted: maximumConnections)
        if connections < maximumConnections {
            Console.error(
                "litevision registry: warning: the open-file limit allows \(connections) connections, not \(maximumConnections) (raise it with ulimit -n)"
            )
        }
        let metrics = RegistryMetrics()
        metrics.bootstrap()  // Hummingbird's request metrics go to the same /metrics
        let app = try RegistryServer.application(
            routes: RegistryRoutes(
                service: service, uploadLimit: uploadLimit, metrics: metrics, blobMemory: blobMemory),
            host: host,
            port: port, tls: tls,
            limits: RegistryServer.Limits(
                idleTimeout: idleTimeout, stallTimeout: stallTimeout, maximumConnections: connections),
            logLevel: logger.logLevel, services: services,
            onRunning: { [host] bound in
                // A server whose announcement is lost still serves (it is found by its address); it says so.
                do {
                    try Console.checkedOutput("litevision registry: serving \(served) at \(scheme)://\(host):\(bound)")
                } catch {
                    Console.error("litevision registry: \(error); serving \(served) at \(scheme)://\(host):\(bound)")
                }
            })
        do {
            try await app.runService()
            postgres?.removeUploadFolder()
        } catch {
            postgres?.removeUploadFolder()
            Console.error("litevision registry: cannot serve on \(host):\(port): \(error)")
            throw ExitCode(1)
        }
    }

    /// The registry on the storage the options name: its service, the services to run beside the server (the
    /// PostgreSQL connection pool), what it serves (for the start line) and the PostgreSQL storage, if that.
    private func openStorage(
        logger: Logger
    ) throws -> (RegistryService, [any Service], String, PostgresRegistryStorage?) {
        do {
            if let postgres = try storage.postgres(logger: logger) {
                return (
                    RegistryService(metadata: postgres.metadata, blobs: postgres.blobs), postgres.services,
                    postgres.url.description, postgres
                )
            }
            let data = storage.data ?? ""
            let registry = try ModelRegistry(dataFolder: data)
            for path in registry.tightenedPermissions {
                Console.error("litevision registry: warning: \(path) could be read by other users; it is now private")
            }
            return (registry.service, [], data, nil)
        } catch {
            Console.error("litevision registry: \(error)")
            throw ExitCode(1)
        }
    }
}
