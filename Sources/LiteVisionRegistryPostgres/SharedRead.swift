import LiteVisionRegistryStorage
import Synchronization

/// One database read shared by every request that asks for it at about the same time, without ever giving a
/// request an answer older than the request: a caller waits for a read that *starts after it asked*, and all
/// callers waiting when a read starts share its answer. At most one read runs at a time; callers that arrive
/// while it runs are answered by the next one, which starts as soon as it ends.
///
/// The registry checks the metadata generation on every request (so that a change made through any replica is
/// what every replica answers next); under load, hundreds of requests a second then cost a few reads instead of
/// one query each, with the same guarantee.
final class SharedRead<Value: Sendable>: Sendable {
    private typealias Waiter = CheckedContinuation<Result<Value, RegistryError>, Never>
    private struct State {
        var reading = false
        var waiting: [Waiter] = []
    }
    private let state = Mutex(State())
    private let read: @Sendable () async throws(RegistryError) -> Value

    /// Shares `read` among concurrent callers.
    init(_ read: @escaping @Sendable () async throws(RegistryError) -> Value) {
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
            if starts { Task { await self.readWhileWaited() } }
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
            let result: Result<Value, RegistryError>
            do {
                result = .success(try await read())
            } catch {
                result = .failure(error)
            }
            for waiter in batch { waiter.resume(returning: result) }
        }
    }
}
