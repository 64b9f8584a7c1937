/// Runs blocking work on a thread of its own, so that an `async` caller waits without holding one of Swift
/// concurrency's few threads (as many as cores) or an event loop: model checks that may run for seconds, say.
package enum DedicatedThread {
    /// The result of `body`, run on a new thread that ends with it. Falls back to running `body` on the caller's
    /// thread when no thread can be started.
    package static func run<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { (continuation: CheckedContinuation<T, Never>) in
            let job = Unmanaged.passRetained(Job { continuation.resume(returning: body()) }).toOpaque()
            var thread = pthread_t()
            let created = pthread_create(
                &thread, nil,
                { context in
                    guard let context else { return nil }
                    Unmanaged<Job>.fromOpaque(context).takeRetainedValue().work()
                    return nil
                }, job)
            if created == 0 {
                pthread_detach(thread)
            } else {
                Unmanaged<Job>.fromOpaque(job).takeRetainedValue().work()
            }
        }
    }

    /// The work handed to the new thread.
    private final class Job: Sendable {
        let work: @Sendable () -> Void
        init(_ work: @escaping @Sendable () -> Void) { self.work = work }
    }
}
