/// A plain mutex with `lock()`/`unlock()`, for critical sections that create and hand out non-Sendable
/// runtime handles (`Mutex.withLock` would require them to be `sending`).
package final class PosixLock: @unchecked Sendable {
    // @unchecked: the state is a pthread mutex, which is itself the synchronization; it is initialized once,
    // never moved (heap-allocated), and destroyed only when no one can hold it any more.
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>

    /// A new, unlocked mutex.
    package init() {
        mutex = .allocate(capacity: 1)
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    /// Waits for and takes the lock.
    package func lock() { pthread_mutex_lock(mutex) }

    /// Releases the lock.
    package func unlock() { pthread_mutex_unlock(mutex) }

    /// Runs `body` with the lock held.
    package func withLock<R>(_ body: () throws -> R) rethrows -> R {
        lock()
        defer { unlock() }
        return try body()
    }
}
