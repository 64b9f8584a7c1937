import Foundation

/// `check`'s first answer that is not `nil`, asked every `interval` seconds for up to `seconds`, and once more after
/// them; `nil` when none came.
///
/// The last look after the deadline matters on a loaded machine: a sleep can overrun the deadline by seconds, and a
/// condition that came true meanwhile must not count as a timeout. Blocking: async tests call the async overload, or
/// this one through `onThread`.
public func waitUntil<T>(seconds: Double, every interval: Double = 0.02, _ check: () throws -> T?) rethrows -> T? {
    let deadline = Date().addingTimeInterval(seconds)
    while true {
        let late = Date() >= deadline
        if let answer = try check() { return answer }
        if late { return nil }
        Thread.sleep(forTimeInterval: interval)
    }
}

/// As the blocking `waitUntil(seconds:every:_:)`, sleeping with `Task.sleep` between looks, so that the waiting
/// task holds no thread of Swift concurrency's pool.
public func waitUntil<T>(
    seconds: Double, every interval: Double = 0.05, _ check: () async throws -> T?
) async throws
    -> T?
{
    let deadline = Date().addingTimeInterval(seconds)
    while true {
        let late = Date() >= deadline
        if let answer = try await check() { return answer }
        if late { return nil }
        try await Task.sleep(for: .seconds(interval))
    }
}
