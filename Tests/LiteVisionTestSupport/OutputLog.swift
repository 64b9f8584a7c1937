import Foundation
import Synchronization

/// Text a child process writes, collected as it arrives (from a pipe's readability handler, on any thread).
public final class OutputLog: Sendable {
    private let collected = Mutex("")

    /// An empty log.
    public init() {}

    /// Adds `data`, decoded as UTF-8 (bad bytes replaced).
    public func append(_ data: Data) { collected.withLock { $0 += String(decoding: data, as: UTF8.self) } }

    /// Everything collected so far.
    public var text: String { collected.withLock { $0 } }
}
