import Dispatch
import LiteVisionSystem
import Synchronization

/// SIGINT (Ctrl-C) and SIGTERM stop `litevision track` cleanly once the source is open: the source is stopped, the
/// frame in progress finishes, and the outputs are completed. Before that (loading the model, connecting), or at a
/// second signal, the process exits at once with status 130 (SIGINT) or 143 (SIGTERM). Made before any other thread
/// starts.
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
        for (source, signalNumber) in zip(sources, [SIGINT, SIGTERM]) {
            source.setEventHandler { [state] in
                // Before the source is open (loading the model, connecting), or at a second signal: exit at once,
                // with the shell's status for a signal (130, 143).
                let again = state.requested.exchange(true, ordering: .relaxed)
                guard !again, let action = state.action.withLock({ $0 }) else { exit(128 + signalNumber) }
                action()
            }
            source.resume()
        }
    }

    /// What the first signal does from now on.
    func onStop(_ body: @escaping @Sendable () -> Void) {
        state.action.withLock { $0 = body }
    }
}
