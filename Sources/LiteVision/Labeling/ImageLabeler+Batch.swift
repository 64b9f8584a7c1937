import Dispatch
import LiteRT
import LiteVisionSystem
import Synchronization

extension ImageLabeler {
    /// Labels many image files, several at once, and hands each result to `body` **in the order of
    /// `paths`** (LiteVision addition; ML Kit has no batch call).
    ///
    /// Files are read and decoded by the worker that labels them, so memory stays bounded whatever the
    /// number of files. The labeler runs `max(1, cores / threadCount)` files at a time: with the default
    /// one-thread-per-core options that is one file at a time with a parallel inference; a labeler made with
    /// `threadCount = 1` labels one file per core, which keeps every core busy through decoding too and is
    /// the fastest way through a folder. `body` is called on one thread at a time.
    public func labelFiles(
        _ paths: [String], _ body: (_ index: Int, _ result: Result<[ImageLabel], VisionError>) -> Void
    ) {
        let workers = max(
            1, min(paths.count, Runtime.defaultThreadCount / max(1, configuration.processing.threadCount)))
        if workers == 1 {
            for (index, path) in paths.enumerated() { body(index, label(path)) }
            return
        }
        let state = Mutex(BatchState())
        let emitting = PosixLock()  // serializes calls to `body` and keeps them in order
        withoutActuallyEscaping(body) { body in
            let body = UnsafeSendable(body)
            DispatchQueue.concurrentPerform(iterations: workers) { _ in
                while true {
                    let index = state.withLock { state -> Int? in
                        guard state.next < paths.count else { return nil }
                        defer { state.next += 1 }
                        return state.next
                    }
                    guard let index else { return }
                    let result = label(paths[index])
                    state.withLock { $0.finished[index] = result }
                    // Emit every result that is next in order; one worker at a time.
                    emitting.lock()
                    while let (ready, outcome) = state.withLock({ state -> (Int, Result<[ImageLabel], VisionError>)? in
                        guard let outcome = state.finished.removeValue(forKey: state.emitted) else { return nil }
                        defer { state.emitted += 1 }
                        return (state.emitted, outcome)
                    }) {
                        body.value(ready, outcome)
                    }
                    emitting.unlock()
                }
            }
        }
    }

    private func label(_ path: String) -> Result<[ImageLabel], VisionError> {
        Result { () throws(VisionError) in try results(in: try VisionImage(contentsOfFile: path)) }
    }
}

private struct BatchState {
    var next = 0
    var emitted = 0
    var finished: [Int: Result<[ImageLabel], VisionError>] = [:]
}

/// Carries a non-Sendable closure into `concurrentPerform`.
private struct UnsafeSendable<T>: @unchecked Sendable {
    // @unchecked: the wrapped closure is only called while `emitting` (a PosixLock) is held, so never from two
    // threads at once, and `concurrentPerform` returns before `labelFiles` does.
    let value: T
    init(_ value: T) { self.value = value }
}
