import Dispatch
import LiteVisionSystem

/// Compiled models of one model, handed to one caller at a time, so one feature object serves many
/// threads and tasks without data races. Sessions are created on demand up to `limit`; beyond that a caller
/// waits for one to come back.
final class SessionPool: @unchecked Sendable {
    // @unchecked: `idle` is only touched with `lock` held, and a session taken out of it belongs to exactly
    // one caller until it is put back. `available` counts the sessions a caller may still take or create.
    private let lock = PosixLock()
    private var idle: [InferenceSession] = []
    private let available: DispatchSemaphore
    private let make: @Sendable () throws -> InferenceSession

    init(limit: Int, first: InferenceSession, make: @escaping @Sendable () throws -> InferenceSession) {
        self.available = DispatchSemaphore(value: max(1, limit))
        self.make = make
        self.idle = [first]
    }

    /// Runs `body` with a session of its own.
    func withSession<R>(_ body: (InferenceSession) throws -> R) throws -> R {
        available.wait()
        defer { available.signal() }
        let session = try lock.withLock { idle.popLast() } ?? make()
        defer { lock.withLock { idle.append(session) } }
        return try body(session)
    }
}
