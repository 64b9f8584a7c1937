import Synchronization

/// Why a run of `litevision track` was asked to stop before its source ended (`--duration`, a signal), if it was;
/// set from other threads.
final class StopReason: Sendable {
    private let reason = Mutex<String?>(nil)

    /// Records the first reason.
    func set(_ text: String) { reason.withLock { $0 = $0 ?? text } }

    /// Whether a stop was asked for.
    var isSet: Bool { reason.withLock { $0 != nil } }
}
