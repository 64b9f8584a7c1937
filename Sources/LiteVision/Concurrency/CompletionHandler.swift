import Dispatch

/// Runs `work` on a background queue and hands its result or error to `completion` on `queue`: the shape of
/// ML Kit's `process(_:completion:)` calls.
func runInBackground<Value: Sendable>(
    on queue: DispatchQueue, _ work: @escaping @Sendable () throws(VisionError) -> Value,
    completion: @escaping @Sendable (Value?, VisionError?) -> Void
) {
    DispatchQueue.global(qos: .userInitiated).async {
        let outcome = Result { () throws(VisionError) in try work() }
        queue.async {
            switch outcome {
            case .success(let value): completion(value, nil)
            case .failure(let error): completion(nil, error)
            }
        }
    }
}
