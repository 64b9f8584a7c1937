@testable import LiteVisionRegistryPostgres
import LiteVisionRegistryStorage
import Glibc
import Synchronization
import Testing

/// The PostgreSQL registry reads the metadata generation once for all the requests asking at the same moment,
/// and never answers a request with a read that started before it.
@Suite("SharedRead: one read for concurrent callers, never older than the call")
struct SharedReadTests {
    /// Counts reads; each read's value is its number (1, 2, …), taken when it starts.
    final class Reads: Sendable {
        let started = Mutex(0)
        let failing = Mutex(false)
        func start() -> Int {
            started.withLock {
                $0 += 1; return $0
            }
        }
        var count: Int { started.withLock { $0 } }
    }

    static func shared(_ reads: Reads, taking duration: Duration) -> SharedRead<Int> {
        SharedRead(deadline: .seconds(30)) { () throws(RegistryError) in
            let number = reads.start()
            try? await Task.sleep(for: duration)
            if reads.failing.withLock({ $0 }) { throw RegistryError.unavailable("the database is down") }
            return number
        }
    }

    @Test(
        "50 callers at once share a few reads; a caller gets a read that started after it called",
        .timeLimit(.minutes(1)))
    func sharedAndFresh() async throws {
        let reads = Reads()
        let shared = Self.shared(reads, taking: .milliseconds(100))
        let values = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<50 { group.addTask { try await shared.value() } }
            return try await group.reduce(into: [Int]()) { $0.append($1) }
        }
        #expect(values.count == 50)
        #expect(reads.count <= 10, "\(reads.count) reads for 50 callers")

        // A read is running; a caller arriving now must get a later one.
        let running = Task { try await shared.value() }
        while reads.count == values.max()! { try await Task.sleep(for: .milliseconds(1)) }
        let startedBefore = reads.count
        let value = try await shared.value()
        #expect(value > startedBefore)
        #expect(try await running.value == startedBefore)
    }

    @Test("A failed read fails every caller sharing it; the next call reads again", .timeLimit(.minutes(1)))
    func failureIsShared() async throws {
        let reads = Reads()
        let shared = Self.shared(reads, taking: .milliseconds(300))
        reads.failing.withLock { $0 = true }
        let outcomes = await withTaskGroup(of: Bool.self) { group in
            for _ in 0..<10 { group.addTask { (try? await shared.value()) == nil } }
            return await group.reduce(into: [Bool]()) { $0.append($1) }
        }
        #expect(outcomes == [Bool](repeating: true, count: 10))
        #expect(reads.count <= 3, "\(reads.count) reads for 10 callers")
        reads.failing.withLock { $0 = false }
        let before = reads.count
        #expect(try await shared.value() == before + 1)
    }

    @Test(
        "A read that never answers fails its callers at the deadline; the next callers read again",
        .timeLimit(.minutes(1)))
    func stuckRead() async throws {
        let reads = Reads()
        let firstReleased = Mutex(false)
        let shared = SharedRead<Int>(deadline: .milliseconds(300)) { () throws(RegistryError) in
            let number = reads.start()
            // The first read is a stuck query: it waits, deaf to cancellation, until the test releases it.
            while number == 1 && !firstReleased.withLock({ $0 }) {
                usleep(1000)
                await Task.yield()
            }
            return number
        }
        let clock = ContinuousClock()
        let started = clock.now
        let errors = await withTaskGroup(of: RegistryError?.self) { group in
            for _ in 0..<10 {
                group.addTask {
                    do throws(RegistryError) {
                        _ = try await shared.value()
                        return nil
                    } catch { return error }
                }
            }
            return await group.reduce(into: [RegistryError?]()) { $0.append($1) }
        }
        let waited = clock.now - started
        // The callers waiting for the first read fail at its deadline; any that came later got a later read.
        let failures = errors.compactMap { $0 }
        #expect(errors.count == 10 && !failures.isEmpty)
        for error in failures {
            guard case .unavailable(let message) = error else {
                Issue.record("expected unavailable, got \(error)")
                continue
            }
            #expect(message.contains("did not answer within 0.3 s"), "\(message)")
        }
        // Bounded, not at the deadline itself: on a busy 2-core host the callers' tasks wait for the cooperative pool,
        // which the parallel suites' blocking tests hold (10.4 s seen in CI); the stuck read never answers at all.
        #expect(waited < .seconds(60), "callers waited \(waited)")

        // The first read is still stuck; a new caller gets a read of its own, which answers.
        #expect(try await shared.value() > 1)
        firstReleased.withLock { $0 = true }
    }
}
