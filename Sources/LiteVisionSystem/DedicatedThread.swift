/// Runs blocking work on a thread of its own, so that an `async` caller waits without holding one of Swift
/// concurrency's few threads (as many as cores) or an event loop: model checks that may run for seconds, say.
package enum DedicatedThread {
    /// The result of `body`, run on a new thread that ends with it. Falls back to running `body` on the caller's
    /// thread when no thread can be started.
    package static func run<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { (continuation: CheckedContinuation<T, Never>) in
            let work: @Sendable () -> Void = { continuation.resume(returning: body()) }
            if let thread = start(work) {
                pthread_detach(thread)
            } else {
                work()
            }
        }
    }

    /// Starts a thread running `body`; the caller joins or detaches it. `nil` when the system refuses a thread.
    /// `body` is handed over to the new thread: the caller must not use what it captures any more.
    package static func start(_ body: sending @escaping () -> Void) -> pthread_t? {
        let job = Unmanaged.passRetained(Job(body)).toOpaque()
        var thread = pthread_t()
        let created = pthread_create(
            &thread, nil,
            { context in
                guard let context else { return nil }
                Unmanaged<Job>.fromOpaque(context).takeRetainedValue().work()
                return nil
            }, job)
        guard created == 0 else {
            Unmanaged<Job>.fromOpaque(job).release()
            return nil
        }
        return thread
    }

    /// The work handed to the new thread, which alone uses it.
    private final class Job {
        let work: () -> Void
        init(_ work: @escaping () -> Void) { self.work = work }
    }
}
