import Foundation

/// Runs a blocking `body` (a program to wait for, a transfer, a pipeline) on a thread of its own, not on Swift
/// concurrency's cooperative pool: that pool has as many threads as cores (two here), and a test that blocks one
/// for many seconds starves every async test running beside it (a slow download's reader, a time limit).
public func onThread<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread { continuation.resume(with: Result { try body() }) }.start()
    }
}
