import LiteVisionRegistryStorage
import Logging
import PostgresNIO
import Synchronization

/// The registry's access to PostgreSQL: the connection pool (postgres-nio's `PostgresClient`, run as a service),
/// with a bound on how long a request waits for a connection, and PostgreSQL's errors turned into
/// ``RegistryError``s.
///
/// While the database cannot be reached, postgres-nio keeps trying to connect in the background (with a growing
/// pause, at most a minute) and would keep requests waiting; here a request that gets no connection within
/// ``leaseTimeout`` fails at once with ``RegistryError/unavailable(_:)`` (HTTP 503), and the replica serves again
/// as soon as a connection succeeds, without a restart.
struct PostgresDatabase: Sendable {
    let client: PostgresClient
    let logger: Logger
    /// The longest a request waits for a connection.
    let leaseTimeout: Duration

    /// Runs `body` on a connection of the pool; `what` names the operation in errors.
    func withConnection<T: Sendable>(
        _ what: String, timeout: Duration? = nil, _ body: @escaping @Sendable (PostgresConnection) async throws -> T
    ) async throws(RegistryError) -> T {
        let leased = LeaseFlag()
        let timeout = timeout ?? leaseTimeout
        let client = client
        do {
            return try await withThrowingTaskGroup(of: T?.self) { group in
                group.addTask {
                    try await client.withConnection { connection in
                        leased.set()
                        return try await body(connection)
                    }
                }
                group.addTask {
                    try await Task.sleep(for: timeout)
                    if !leased.isSet { throw LeaseTimeout(seconds: timeout) }
                    return nil
                }
                while let result = try await group.next() {
                    if let result {
                        group.cancelAll()
                        return result
                    }
                }
                throw CancellationError()
            }
        } catch {
            throw registryError(error, what)
        }
    }

    /// Runs `body` in a transaction (committed when it returns, rolled back when it throws).
    func withTransaction<T: Sendable>(
        _ what: String, _ body: @escaping @Sendable (PostgresConnection) async throws -> T
    ) async throws(RegistryError) -> T {
        let logger = logger
        return try await withConnection(what) { connection in
            try await connection.withTransaction(logger: logger) { connection in try await body(connection) }
        }
    }

    /// `error` as the registry reports it; the details of database errors are logged, not sent to clients.
    func registryError(_ error: any Error, _ what: String) -> RegistryError {
        switch error {
        case let error as RegistryError:
            return error
        case let error as PostgresTransactionError:
            if let inner = error.closureError ?? error.beginError ?? error.commitError {
                return registryError(inner, what)
            }
            return .storage("\(what): the transaction failed")
        case let error as PSQLError:
            guard error.code == .server, let state = error.serverInfo?[.sqlState] else {
                logger.warning(
                    "database connection failed", metadata: ["operation": "\(what)", "code": "\(error.code)"])
                return .unavailable("\(what): the connection to PostgreSQL failed (\(error.code))")
            }
            switch state {
            case "40001", "40P01":  // serialization failure, deadlock: nothing was changed
                return .conflict("\(what) collided with a change made at the same time")
            case "23503" where error.serverInfo?[.tableName] == "registry_version":
                return .conflict("the model file was removed while \(what) was under way")
            case _ where state.hasPrefix("08") || state.hasPrefix("57P") || state == "53300":
                // Connection exceptions, the server shutting down or starting, too many connections.
                return .unavailable("\(what): PostgreSQL is not available (SQLSTATE \(state))")
            case "42P01", "42703":  // a table or column is missing: the schema is not (yet) this program's
                return .unavailable("\(what): the registry's tables are not ready (SQLSTATE \(state))")
            default:
                logger.error(
                    "database error",
                    metadata: [
                        "operation": "\(what)", "sqlstate": "\(state)",
                        "message": "\(error.serverInfo?[.message] ?? "")",
                    ])
                return .storage("\(what): PostgreSQL error (SQLSTATE \(state))")
            }
        case let error as LeaseTimeout:
            return .unavailable("\(what): no connection to PostgreSQL within \(error.seconds)")
        case is CancellationError:
            return .unavailable("\(what): cancelled")
        case let error as PostgresDecodingError:
            logger.error("database answer not understood", metadata: ["operation": "\(what)", "error": "\(error)"])
            return .storage("\(what): PostgreSQL's answer was not what the registry expects")
        default:
            // The pool's own errors (a circuit breaker open after a minute of failed connections, a closed pool).
            logger.warning("database unavailable", metadata: ["operation": "\(what)", "error": "\(error)"])
            return .unavailable("\(what): no connection to PostgreSQL")
        }
    }
}

/// Set once a connection was leased (read by the timer that gives up waiting for one).
private final class LeaseFlag: Sendable {
    private let value = Atomic<Bool>(false)
    func set() { value.store(true, ordering: .releasing) }
    var isSet: Bool { value.load(ordering: .acquiring) }
}

/// No connection was leased in time.
struct LeaseTimeout: Error {
    var seconds: Duration
}
