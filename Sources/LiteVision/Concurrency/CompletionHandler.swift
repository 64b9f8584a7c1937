import Dispatch
import Synchronization

/// Runs `work` on a background queue and hands its result or error to `completion`: the shape of ML Kit's
/// calls with a completion handler (`process(_:completion:)`, and `ModelManager`'s
/// `deleteDownloadedModel(_:completion:)`).
///
/// `completion` runs on `queue` when one is given. Otherwise it runs on the main queue, as in ML Kit, if the
/// main queue ran since the call began (a probe block posted on it has run by the time the result is ready, or
/// within ``MainQueueProbe/grace`` after it, since quick work such as deleting a file can end before a serviced
/// main queue gets to the probe), and else on a background queue: a program whose main thread never services the
/// main queue, or waits for this very result, still gets its answer instead of a deadlock.
package func runInBackground<Value: Sendable, Failure: Error>(
    on queue: DispatchQueue?, qos: DispatchQoS.QoSClass = .userInitiated,
    _ work: @escaping @Sendable () throws(Failure) -> Value,
    completion: @escaping @Sendable (Value?, Failure?) -> Void
) {
    let probe = queue == nil ? MainQueueProbe() : nil
    DispatchQueue.global(qos: qos).async {
        let outcome = Result { () throws(Failure) in try work() }
        let target = queue ?? (probe?.mainQueueRuns() == true ? .main : .global(qos: qos))
        target.async {
            switch outcome {
            case .success(let value): completion(value, nil)
            case .failure(let error): completion(nil, error)
            }
        }
    }
}

/// Tells whether the main queue is being serviced: a block posted on it when the probe is made marks the
/// probe when it runs.
final class MainQueueProbe: Sendable {
    /// Signalled once, when the main queue runs the probe's block.
    private let ran = DispatchSemaphore(value: 0)

    /// How long ``mainQueueRuns()`` waits for a probe block that has not run yet.
    static let grace = DispatchTimeInterval.milliseconds(100)

    init() {
        DispatchQueue.main.async { [ran] in ran.signal() }
    }

    /// Whether the main queue ran the probe's block, waiting up to ``grace`` for it. Only a program whose main
    /// queue is not serviced waits the whole grace, on a background thread, before its completion runs. Ask once.
    func mainQueueRuns() -> Bool {
        ran.wait(timeout: .now() + Self.grace) == .success
    }
}
