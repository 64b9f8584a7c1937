import Dispatch
import LiteVisionSystem
import Synchronization

/// SIGINT (Ctrl-C) and SIGTERM stop `litevision track` cleanly: the source is stopped, the frame in progress
/// finishes, and the outputs are completed. Made before any other thread starts.
final class StopSignals {
    /// What the signal handlers share with the command.
    private final class State: Sendable {
        let requested = Atomic<Bool>(false)
        let action = Mutex<(@Sendable () -> Void)?>(nil)
    }

    private let state = State()
    /// Kept for as long as the command runs: released, they would stop listening.
    private let sources: [any DispatchSourceSignal]

    init() {
        let queue = DispatchQueue(label: "litevision.signals")
        sources = [SIGINT, SIGTERM].map { signalNumber in
            signal(signalNumber, SIG_IGN)  // delivered to the dispatch source instead of ending the process
            return DispatchSource.makeSignalSource(signal: signalNumber, queue: queue)
        }
        for source in sources {
            source.setEventHandler { [state] in
                state.requested.store(true, ordering: .relaxed)
                state.action.withLock { $0 }?()
            }
            source.resume()
        }
    }

    /// What a signal does from now on (at once, if one came already).
    func onStop(_ body: @escaping @Sendable () -> Void) {
        state.action.withLock { $0 = body }
        if state.requested.load(ordering: .relaxed) { body() }
    }
}
