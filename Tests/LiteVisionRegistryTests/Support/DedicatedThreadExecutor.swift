import Foundation

/// A task executor with threads of its own, for servers that tests run in their own process.
///
/// Tests call synchronous clients (the curl downloader, subprocesses) from async test functions; each such
/// call holds one thread of Swift's cooperative pool, which has as many threads as the machine has cores. A
/// server running on that pool then waits for a thread while its client waits for the server: with two tests
/// doing this at once on 2 cores, both stall until the client's own timeout. A server task started with
/// `Task(executorPreference: DedicatedThreadExecutor.shared)` (and the child tasks it makes) runs here instead.
final class DedicatedThreadExecutor: TaskExecutor, @unchecked Sendable {
    /// Two threads, started once and kept for the test process's life.
    static let shared = DedicatedThreadExecutor(threads: 2)

    // Safe to share: `jobs` is read and written only while `condition` is locked.
    private let condition = NSCondition()
    private var jobs: [UnownedJob] = []

    private init(threads: Int) {
        for index in 0..<threads {
            let thread = Thread { [unowned self] in self.runJobs() }
            thread.name = "test-server-\(index)"
            thread.start()
        }
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        condition.lock()
        jobs.append(job)
        condition.signal()
        condition.unlock()
    }

    private func runJobs() -> Never {
        while true {
            condition.lock()
            while jobs.isEmpty { condition.wait() }
            let job = jobs.removeFirst()
            condition.unlock()
            job.runSynchronously(on: asUnownedTaskExecutor())
        }
    }
}
