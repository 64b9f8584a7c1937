import Foundation
import LiteVisionTestSupport

/// An interactive psql session (a transaction the test keeps open while it does other things).
final class PostgresSession {
    private let process = Process()
    private let input = Pipe()
    private let log: OutputLog

    init(_ server: PostgresServer) throws {
        process.executableURL = URL(fileURLWithPath: PostgresServer.binaries + "/psql")
        process.arguments = [
            "-h", "127.0.0.1", "-p", String(server.port), "-U", "postgres", "-d", server.database, "-At", "-v",
            "ON_ERROR_STOP=1",
        ]
        process.environment = ProcessInfo.processInfo.environment.merging(server.environment) { $1 }
        let output = Pipe()
        input.closeOnExec()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = output
        log = OutputLog(reading: output)
        try process.run()
    }

    /// Sends `sql` and waits until `marker` appears in the output.
    func run(_ sql: String, until marker: String) throws {
        let before = log.text.components(separatedBy: marker).count
        input.fileHandleForWriting.write(Data((sql + "\n").utf8))
        let arrived = waitUntil(seconds: 30) {
            log.text.components(separatedBy: marker).count > before ? true : process.isRunning ? nil : false
        }
        guard arrived == true else { throw PostgresServerError(message: "psql session: \(sql): \(log.text)") }
    }

    func close() {
        try? input.fileHandleForWriting.close()
        process.waitUntilExit()
    }

    deinit {
        if process.isRunning { process.terminate() }
    }
}
