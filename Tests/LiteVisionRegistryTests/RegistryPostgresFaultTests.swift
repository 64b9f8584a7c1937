import Foundation
import LiteVisionModelStore
import LiteVisionRegistry
import LiteVisionTestSupport
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// PostgreSQL going away under the replicas (stopped and restarted; a query stuck behind a lock): part of the
// PostgreSQL suite (serialized with it).
extension RegistryPostgresTests {
    @Test("PostgreSQL stopped: /ready is 503 on both replicas, /health 200; restarted: ready again, same processes")
    func databaseRestart() async throws {
        // Requests that need the database give up on a connection after 2 s (5 s unless set).
        let fleet = try await Fleet(replicas: [["--database-timeout", "2"], ["--database-timeout", "2"]])
        let (a, b) = (fleet.replicas[0], fleet.replicas[1])
        #expect(try await Self.publish(Self.bird, as: "birds", through: a, token: fleet.token).status == 201)
        fleet.postgres.stop()
        for replica in [a, b] {
            try await Self.waitFor(replica, ready: false, seconds: 30)
            #expect(try await Self.send("GET", replica.base + "/health").status == 200)
            let models = try await Self.send("GET", replica.base + "/v1/models/birds")
            #expect(models.status == 503, "\(String(decoding: models.body, as: UTF8.self))")
            #expect(Self.json(models.body)["error"] is String)
        }
        try fleet.postgres.start()
        for replica in [a, b] { try await Self.waitFor(replica, ready: true, seconds: 60) }
        #expect(a.isRunning && b.isRunning)
        let second = try await Self.publish(Self.labeler, as: "birds", through: b, token: fleet.token)
        #expect(second.status == 201 && second.answer["version"] as? Int == 2)
        #expect(Self.versions(Self.json(try await Self.send("GET", a.base + "/v1/models/birds").body)) == [2, 1])
    }

    @Test(
        "A query PostgreSQL never answers (its table locked by another session): 503 at the timeout, not a hang; then served",
        .timeLimit(.minutes(3)))
    func stuckQuery() async throws {
        // Two connections: stuck reads that kept theirs would leave none for /ready after two deadlines.
        let fleet = try await Fleet(replicas: [["--database-timeout", "2", "--database-connections", "2"]])
        let replica = fleet.replicas[0]
        #expect(try await Self.publish(Self.bird, as: "birds", through: replica, token: fleet.token).status == 201)
        // Another session holds the table every request reads first, for 15 s: the replica's SELECT waits on it.
        let locker = try fleet.postgres.startPsql(
            "BEGIN; LOCK TABLE registry_state IN ACCESS EXCLUSIVE MODE; SELECT pg_sleep(15); COMMIT;")
        defer { if locker.isRunning { locker.terminate() } }
        let lockedBy = """
            SELECT count(*) FROM pg_locks
            WHERE relation = 'registry_state'::regclass AND mode = 'AccessExclusiveLock' AND granted
            """
        var locked = false
        for _ in 0..<100 where !locked {
            locked = try fleet.postgres.query(lockedBy) != "0"
            if !locked { try await Task.sleep(for: .milliseconds(50)) }
        }
        try #require(locked, "the other session never took the lock")

        let clock = ContinuousClock()
        let started = clock.now
        let url = replica.base + "/v1/models/birds"
        let answers = try await withThrowingTaskGroup(of: (Int, Data).self) { group in
            for _ in 0..<5 {
                group.addTask {
                    let answer = try await Self.send("GET", url)
                    return (answer.status, answer.body)
                }
            }
            return try await group.reduce(into: [(Int, Data)]()) { $0.append($1) }
        }
        let waited = clock.now - started
        for (status, body) in answers {
            #expect(status == 503, "\(String(decoding: body, as: UTF8.self))")
            #expect(
                (Self.json(body)["error"] as? String)?.contains("did not answer within 2") == true,
                "\(String(decoding: body, as: UTF8.self))")
        }
        #expect(waited < .seconds(8), "answered after \(waited), the lock is held 15 s")
        // Three more deadlines pass while the lock is held: the abandoned reads gave their connections back,
        // so a request that needs a connection but not the locked table is still answered.
        for _ in 0..<3 {
            #expect(try await Self.send("GET", url).status == 503)
        }
        let ready = try await Self.send("GET", replica.base + "/ready")
        #expect(ready.status == 200, "\(String(decoding: ready.body, as: UTF8.self))")
        while locker.isRunning { try await Task.sleep(for: .milliseconds(100)) }
        let served = try await Self.send("GET", replica.base + "/v1/models/birds")
        #expect(served.status == 200 && Self.versions(Self.json(served.body)) == [1])
    }
}
