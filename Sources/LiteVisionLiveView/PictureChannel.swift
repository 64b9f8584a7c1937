import NIOCore
import Synchronization

/// The newest annotated picture of one source, as JPEG, for its MJPEG viewers: each viewer waits for a picture
/// newer than the one it sent last, so a slow viewer skips pictures instead of queueing them, and the tracking
/// thread that publishes never waits for a viewer.
final class PictureChannel: Sendable {
    private struct State {
        /// Counts the pictures published (0: none yet).
        var sequence = 0
        var picture: ByteBuffer?
        /// Viewers waiting for a newer picture, by the id of their wait.
        var waiting: [Int: CheckedContinuation<(Int, ByteBuffer)?, Never>] = [:]
        var nextWait = 0
        /// Viewers connected now.
        var viewers = 0
        var closed = false
    }

    private let state = Mutex(State())

    /// Whether anyone watches: pictures are drawn and encoded only then.
    var isWatched: Bool { state.withLock { $0.viewers > 0 } }

    /// Viewers connected now.
    var viewers: Int { state.withLock { $0.viewers } }

    /// Counts a viewer in (``leave()`` counts it out).
    func join() { state.withLock { $0.viewers += 1 } }

    /// Counts a viewer out.
    func leave() { state.withLock { $0.viewers -= 1 } }

    /// Replaces the picture and wakes the viewers waiting for one.
    func publish(_ jpeg: ByteBuffer) {
        let (waiting, sequence) = state.withLock { state in
            state.sequence += 1
            state.picture = jpeg
            defer { state.waiting = [:] }
            return (state.waiting, state.sequence)
        }
        for waiter in waiting.values { waiter.resume(returning: (sequence, jpeg)) }
    }

    /// Wakes every waiting viewer with the picture it has (a viewer resends it, so that a source that sends nothing
    /// for a while does not look like a dead connection).
    func heartbeat() {
        let (waiting, sequence, picture) = state.withLock { state in
            defer { state.waiting = [:] }
            return (state.waiting, state.sequence, state.picture)
        }
        for waiter in waiting.values {
            waiter.resume(returning: picture.map { (sequence, $0) } ?? (0, ByteBuffer()))
        }
    }

    /// The newest picture if it is newer than picture `after`, or else the next one published (or the current one
    /// again at a ``heartbeat()``; an empty buffer when there is none yet); `nil` once the channel is closed.
    func next(after: Int) async -> (sequence: Int, jpeg: ByteBuffer)? {
        let id = state.withLock { state -> Int in
            state.nextWait += 1
            return state.nextWait
        }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<(Int, ByteBuffer)?, Never>) in
                let ready: (Int, ByteBuffer)?? = state.withLock { state in
                    if state.closed || Task.isCancelled { return .some(nil) }
                    if let picture = state.picture, state.sequence > after { return (state.sequence, picture) }
                    state.waiting[id] = continuation
                    return .none
                }
                if let ready { continuation.resume(returning: ready) }
            }
        } onCancel: {
            let waiter = state.withLock { $0.waiting.removeValue(forKey: id) }
            waiter?.resume(returning: nil)
        }
    }

    /// Ends every wait (the server is stopping).
    func close() {
        let waiting = state.withLock { state in
            state.closed = true
            defer { state.waiting = [:] }
            return state.waiting
        }
        for waiter in waiting.values { waiter.resume(returning: nil) }
    }
}
