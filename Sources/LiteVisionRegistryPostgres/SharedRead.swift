import LiteVisionRegistryStorage
import Synchronization

/// One database read shared by every request that asks for it at about the same time, without ever giving a
/// request an answer older than the request: a caller waits for a read that *starts after it asked*, and all
/// callers waiting when a read starts share its answer. At most one read is waited for at a time; callers that
/// arrive while it runs are answered by the next one, which starts as soon as it ends.
///
/// The registry checks the metadata generation on every request (so that a change made through any replica is
/// what every replica answers next); under load, hundreds of requests a second then cost a few reads instead of
/// one query each, with the same guarantee.
///
/// A read that has not answered within `deadline` (a database that accepts the query and never answers) fails
/// its callers with ``RegistryError/unavailable(_:)`` (HTTP 503) and its task is cancelled (the read must stop on
/// cancellation: the PostgreSQL read closes its connection); the next callers start a read of their own, so one
/// stuck query never holds later requests.
final class SharedRead<Value: Sendable>: Sendable {
    private typealias Waiter = CheckedContinuation<Result<Value, RegistryError>, Never>
    private struct State {
        var reading = false
        var waiting: [Waiter] = []
    }
    private let state = Mutex(State())
    private let deadline: Duration
    private let read: @Sendable () async throws(RegistryError) -> Value

    /// Shares `read` among concurrent callers; a read taking longer than `deadline` fails as unavailable.
    init(deadline: Duration, _ read: @escaping @Sendable () async throws(RegistryError) -> Value) {
        self.deadline = deadline
        self.read = read
    }

    /// The value as read by a read that started after this call.
    func value() async throws(RegistryError) -> Value {
        let result = await withCheckedContinuation { (waiter: Waiter) in
            let starts = state.withLock { state in
                state.waiting.append(waiter)
                guard !state.reading else { return false }
                state.reading = true
                return true
            }
            // Detached: the reads serve every caller, so they take no caller's priority or task-local values.
            if starts { Task.detached { await self.readWhileWaited() } }
        }
        return try result.get()
    }

    /// Reads for the callers waiting now, again for those who came meanwhile, until none waits.
    private func readWhileWaited() async {
        while true {
            let batch = state.withLock { state in
                let batch = state.waiting
                state.waiting = []
                if batch.isEmpty { state.reading = false }
                return batch
            }
            if batch.isEmpty { return }
            let result = await readWithinDeadline()
            for waiter in batch { waiter.resume(returning: result) }
        }
    }

    /// One read, or the deadline's failure if that comes first (the read is then cancelled and left behind).
    ///
    /// The read and the timer are unstructured tasks: a task group would wait for a stuck read before returning.
    private func readWithinDeadline() async -> Result<Value, RegistryError> {
        let outcome = FirstOutcome<Result<Value, RegistryError>>()
        let read = read
        let deadline = deadline
        return await withCheckedContinuation { continuation in
            outcome.await(continuation)
            let reader = Task.detached {
                let result: Result<Value, RegistryError>
                do throws(RegistryError) {
                    result = .success(try await read())
                } catch {
                    result = .failure(error)
                }
                outcome.finish(result)
            }
            let timer = Task.detached {
                try? await Task.sleep(for: deadline)
                if Task.isCancelled { return }
                let seconds =
                    Double(deadline.components.seconds)
                    + Double(deadline.components.attoseconds) / 1e18
                if outcome.finish(.failure(.unavailable("the database did not answer within \(seconds) s"))) {
                    reader.cancel()
                }
            }
            outcome.onFinish { timer.cancel() }
        }
    }
}

/// Resumes one continuation with whichever of several results comes first; the later ones are dropped.
///
/// Lock: every field is behind the `Mutex`; the continuation is taken out under it, so it is resumed exactly once.
private final class FirstOutcome<T: Sendable>: Sendable {
    private struct State {
        var continuation: CheckedContinuation<T, Never>?
        var finished = false
        var whenFinished: (@Sendable () -> Void)?
    }
    private let state = Mutex(State())

    /// The continuation to resume with the first result.
    func await(_ continuation: CheckedContinuation<T, Never>) {
        state.withLock { $0.continuation = continuation }
    }

    /// Runs `action` once a result has come (at once if one already has).
    func onFinish(_ action: @escaping @Sendable () -> Void) {
        let now = state.withLock { state -> Bool in
            if state.finished { return true }
            state.whenFinished = action
            return false
        }
        if now { action() }
    }

    /// Delivers `value` if no result came before; returns whether it was the first.
    @discardableResult
    func finish(_ value: T) -> Bool {
        let taken = state.withLock { state -> (CheckedContinuation<T, Never>?, (@Sendable () -> Void)?)? in
            if state.finished { return nil }
            state.finished = true
            defer { state.continuation = nil; state.whenFinished = nil }
            return (state.continuation, state.whenFinished)
        }
        guard let (continuation, action) = taken else { return false }
        continuation?.resume(returning: value)
        action?()
        return true
    }
}
