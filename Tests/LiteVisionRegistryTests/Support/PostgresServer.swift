import Foundation
import LiteVisionTestSupport

/// A real PostgreSQL server (Debian's PostgreSQL 15) for one test, on a free loopback port, in a temporary
/// folder: `initdb`, then `pg_ctl start`. Password authentication over TCP (scram-sha-256) for the user `postgres`
/// with ``password``; the database `registry` is created. Stopped, and its folder removed, when the value goes.
///
/// PostgreSQL refuses to run as root, so when the tests run as root (CI) every PostgreSQL program runs as the
/// `postgres` user (made by Debian's package) through `runuser`, in a folder owned by that user.
///
/// A missing PostgreSQL is a setup error with the reason (`scripts/setup.sh --dev` installs it), never a skip.
final class PostgresServer {
    /// The folder of PostgreSQL's programs: `LITEVISION_POSTGRES_BIN`, else Debian's PostgreSQL 15.
    static let binaries =
        ProcessInfo.processInfo.environment["LITEVISION_POSTGRES_BIN"].flatMap { $0.isEmpty ? nil : $0 }
        ?? "/usr/lib/postgresql/15/bin"

    let folder: URL
    let port: Int
    let password = "fleet-" + UUID().uuidString.prefix(8)
    let database = "registry"
    private var running = false

    init() throws {
        for program in ["initdb", "pg_ctl", "postgres", "psql"] {
            guard FileManager.default.isExecutableFile(atPath: Self.binaries + "/" + program) else {
                throw PostgresServerError(
                    message: """
                        PostgreSQL's \(program) is not at \(Self.binaries): install PostgreSQL 15 with \
                        `scripts/setup.sh --dev` (apt-get install postgresql), or set LITEVISION_POSTGRES_BIN
                        """)
            }
        }
        if getuid() == 0 {
            guard getpwnam("postgres") != nil,
                FileManager.default.isExecutableFile(atPath: "/usr/sbin/runuser")
                    || FileManager.default.isExecutableFile(atPath: "/sbin/runuser")
            else {
                throw PostgresServerError(
                    message:
                        "the tests run as root, and PostgreSQL must run as the user postgres through runuser: install postgresql and util-linux (scripts/setup.sh --dev)"
                )
            }
        }
        folder = TestData.temporaryDirectory("postgres")
        port = try LoopbackPort.unused()
        try "\(password)\n".write(to: folder.appendingPathComponent("password"), atomically: true, encoding: .utf8)
        if getuid() == 0 {
            guard let user = getpwnam("postgres") else { throw PostgresServerError(message: "no user postgres") }
            let uid = user.pointee.pw_uid, gid = user.pointee.pw_gid
            for path in [folder.path, folder.appendingPathComponent("password").path] {
                guard chown(path, uid, gid) == 0 else {
                    throw PostgresServerError(message: "cannot give \(path) to postgres: errno \(errno)")
                }
            }
        }
        let initdb = try Self.run(
            "initdb",
            [
                "-D", data, "-U", "postgres", "--pwfile", folder.appendingPathComponent("password").path,
                "--auth-local=trust", "--auth-host=scram-sha-256", "--encoding=UTF8", "--locale=C", "--no-sync",
            ])
        guard initdb.status == 0 else { throw PostgresServerError(message: "initdb failed: \(initdb.output)") }
        try start()
        let created = try psql("CREATE DATABASE \(database)", database: "postgres")
        guard created.status == 0 else { throw PostgresServerError(message: "createdb: \(created.output)") }
    }

    deinit {
        stop()
        try? FileManager.default.removeItem(at: folder)
    }

    var data: String { folder.appendingPathComponent("data").path }

    /// The URL replicas are given (its password comes from the environment: ``environment``).
    var url: String { "postgres://postgres@127.0.0.1:\(port)/\(database)?sslmode=disable" }

    /// The environment that gives the password to `litevision-registry` (and to psql).
    var environment: [String: String] {
        ["LITEVISION_REGISTRY_DATABASE_PASSWORD": password, "PGPASSWORD": password]
    }

    /// Starts the server (again) and waits until it accepts connections.
    func start() throws {
        // Fast and unsafe settings are fine for a throwaway test database.
        let options =
            "-p \(port) -c listen_addresses=127.0.0.1 -k \(folder.path) -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200"
        let started = try Self.run(
            "pg_ctl",
            [
                "-D", data, "-o", options, "-l", folder.appendingPathComponent("server.log").path, "-w", "-t", "60",
                "start",
            ],
            closingInheritedFiles: true)
        guard started.status == 0 else {
            let log = (try? String(contentsOf: folder.appendingPathComponent("server.log"), encoding: .utf8)) ?? ""
            throw PostgresServerError(message: "pg_ctl start failed: \(started.output)\n\(log)")
        }
        running = true
    }

    /// Stops the server (fast shutdown: connections are closed at once).
    func stop() {
        guard running else { return }
        _ = try? Self.run("pg_ctl", ["-D", data, "-m", "fast", "-w", "-t", "60", "stop"])
        running = false
    }

    /// psql's arguments to run `sql` over TCP, rows unaligned and `|`-separated, stopping at the first error.
    private func psqlArguments(_ sql: String, database: String? = nil) -> [String] {
        [
            "-h", "127.0.0.1", "-p", String(port), "-U", "postgres", "-d", database ?? self.database, "-At",
            "-v", "ON_ERROR_STOP=1", "-c", sql,
        ]
    }

    /// Runs `sql` with psql over TCP; the rows come back unaligned, `|`-separated.
    @discardableResult
    func psql(_ sql: String, database: String? = nil) throws -> (status: Int32, output: String) {
        let result = try Executables.run(
            Self.binaries + "/psql", psqlArguments(sql, database: database), environment: environment)
        return (result.status, result.output + result.errors)
    }

    /// Starts psql running `sql` in a session of its own and returns at once (for a session that must hold
    /// something, a lock say, while the test goes on); its output is discarded.
    func startPsql(_ sql: String) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.binaries + "/psql")
        process.arguments = psqlArguments(sql)
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        return process
    }

    /// The trimmed output of `sql`, failing when psql does.
    func query(_ sql: String) throws -> String {
        let result = try psql(sql)
        guard result.status == 0 else { throw PostgresServerError(message: "psql \(sql): \(result.output)") }
        return result.output.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// A PostgreSQL program, as the user postgres when the tests run as root. `closingInheritedFiles` closes every
    /// descriptor but the standard three before it starts: the server that `pg_ctl start` leaves running would
    /// otherwise keep the descriptor by which Foundation's `Process` sees its child end, and the wait would last
    /// as long as the server.
    private static func run(
        _ program: String, _ arguments: [String], closingInheritedFiles: Bool = false
    ) throws -> (status: Int32, output: String) {
        var command = [binaries + "/" + program] + arguments
        if closingInheritedFiles {
            let closeAll =
                #"for fd in $(ls /proc/$$/fd); do if [ "$fd" -gt 2 ]; then eval "exec $fd>&-"; fi; done; exec "$@""#
            command = ["/bin/bash", "-c", closeAll, "bash"] + command
        }
        let result =
            getuid() == 0
            ? try Executables.run("/usr/sbin/runuser", ["-u", "postgres", "--"] + command)
            : try Executables.run(command[0], Array(command.dropFirst()))
        return (result.status, result.output + result.errors)
    }
}

struct PostgresServerError: Error, CustomStringConvertible {
    let message: String
    var description: String { "PostgreSQL for the tests: \(message)" }
}
