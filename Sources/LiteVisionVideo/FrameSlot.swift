import LiteVisionSystem

/// The hand-over point between the thread of a ``VideoSource`` and its consumers: one slot holding the frame not
/// yet taken. With ``VideoSource/Delivery/latest`` a new frame replaces a waiting one (which counts as dropped),
/// the way a camera discards late frames; with ``VideoSource/Delivery/every`` the producer waits until the slot is
/// free. Consumers block (``take()``) or suspend (``takeAsync()``); the counters live here too.
final class FrameSlot: @unchecked Sendable {
    // @unchecked: every mutable stored property below is read and written only while `mutex` is held, and
    // the mutex and condition live in manually allocated memory whose address never changes.
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private let condition: UnsafeMutablePointer<pthread_cond_t>
    private let delivery: VideoSource.Delivery
    private var waiting: VideoFrame?
    private var asyncWaiters: [CheckedContinuation<VideoFrame?, any Error>] = []
    private var ended = false
    private var cancelled = false
    private var failure: VideoError?
    private var failureReported = false
    private var counts = VideoSource.Statistics()
    /// Told (outside the lock) when a frame waits or the frames end: see ``observe(_:)``.
    private var observer: (@Sendable () -> Void)?

    init(delivery: VideoSource.Delivery) {
        self.delivery = delivery
        mutex = .allocate(capacity: 1)
        pthread_mutex_init(mutex, nil)
        condition = .allocate(capacity: 1)
        var attributes = pthread_condattr_t()
        pthread_condattr_init(&attributes)
        pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)  // timed waits follow MonotonicClock
        pthread_cond_init(condition, &attributes)
        pthread_condattr_destroy(&attributes)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    private func locked<T>(_ body: () -> T) -> T {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return body()
    }

    // MARK: Producer side

    /// Offers a frame; `false` once the source was stopped. With `.latest` it replaces any frame still waiting
    /// (dropped); with `.every` it waits until the frame before was taken.
    func publish(_ frame: VideoFrame) -> Bool {
        pthread_mutex_lock(mutex)
        if delivery == .every {
            while waiting != nil, !cancelled { pthread_cond_wait(condition, mutex) }
        }
        guard !cancelled else {
            pthread_mutex_unlock(mutex)
            return false
        }
        if !asyncWaiters.isEmpty {
            let waiter = asyncWaiters.removeFirst()
            pthread_mutex_unlock(mutex)
            waiter.resume(returning: frame)
            return true
        }
        if waiting != nil { counts.dropped += 1 }
        waiting = frame
        pthread_cond_broadcast(condition)
        let observer = observer
        pthread_mutex_unlock(mutex)
        observer?()
        return true
    }

    /// Updates the counters the decoder keeps (`body` changes them).
    func updateCounts(_ body: (inout VideoSource.Statistics) -> Void) { locked { body(&counts) } }

    /// Marks the end of the frames (with the error that ended them, if any).
    func end(failure: VideoError?) {
        let (waiters, observer): ([CheckedContinuation<VideoFrame?, any Error>], (@Sendable () -> Void)?) = locked {
            ended = true
            self.failure = failure
            pthread_cond_broadcast(condition)
            return (waiting == nil ? takeAllWaiters() : [], self.observer)
        }
        for waiter in waiters { resumeAtEnd(waiter) }
        observer?()
    }

    /// Waits until the monotonic time `deadline`; `false` if the source was stopped meanwhile.
    func sleep(until deadline: Double) -> Bool {
        var time = MonotonicClock.deadline(at: deadline)
        return locked {
            while !cancelled, MonotonicClock.now() < deadline {
                _ = pthread_cond_timedwait(condition, mutex, &time)
            }
            return !cancelled
        }
    }

    /// Whether ``cancel()`` was called.
    var isCancelled: Bool { locked { cancelled } }

    // MARK: Consumer side

    /// The waiting frame, blocking until one arrives; `nil` once the frames have ended (or the source was
    /// stopped) and no frame is waiting.
    ///
    /// - Throws: The error that ended the frames, once, after the last frame.
    func take() throws(VideoError) -> VideoFrame? {
        pthread_mutex_lock(mutex)
        while waiting == nil, !ended, !cancelled { pthread_cond_wait(condition, mutex) }
        let frame = cancelled ? nil : waiting
        waiting = nil
        pthread_cond_broadcast(condition)  // a producer waiting for the slot (`.every`)
        let error = frame == nil ? reportFailure() : nil
        pthread_mutex_unlock(mutex)
        if let error { throw error }
        return frame
    }

    /// ``take()`` for async code: suspends instead of blocking a thread.
    func takeAsync() async throws -> VideoFrame? {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<VideoFrame?, any Error>) in
            pthread_mutex_lock(mutex)
            if let frame = waiting, !cancelled {
                waiting = nil
                pthread_cond_broadcast(condition)
                pthread_mutex_unlock(mutex)
                continuation.resume(returning: frame)
            } else if ended || cancelled {
                pthread_mutex_unlock(mutex)
                resumeAtEnd(continuation)
            } else {
                asyncWaiters.append(continuation)
                pthread_mutex_unlock(mutex)
            }
        }
    }

    /// Stops the producer and wakes everyone; later takes return `nil`.
    func cancel() {
        let (waiters, observer): ([CheckedContinuation<VideoFrame?, any Error>], (@Sendable () -> Void)?) = locked {
            cancelled = true
            waiting = nil
            pthread_cond_broadcast(condition)
            return (takeAllWaiters(), self.observer)
        }
        for waiter in waiters { waiter.resume(returning: nil) }
        observer?()
    }

    /// What ``poll()`` found.
    enum Poll {
        /// A frame was waiting: it is taken.
        case frame(VideoFrame)
        /// No frame yet.
        case pending
        /// The frames have ended, or the source was stopped.
        case ended
    }

    /// Takes the waiting frame without blocking (``VideoPipeline``'s workers, which serve several sources).
    func poll() -> Poll {
        locked {
            if cancelled { return .ended }
            if let frame = waiting {
                waiting = nil
                pthread_cond_broadcast(condition)  // a producer waiting for the slot (`.every`)
                return .frame(frame)
            }
            return ended ? .ended : .pending
        }
    }

    /// Has `observer` called, outside the lock, after each frame is offered, when the frames end and when the
    /// source is stopped; it must not block. It replaces any observer before.
    func observe(_ observer: @escaping @Sendable () -> Void) { locked { self.observer = observer } }

    /// The counters so far.
    var statistics: VideoSource.Statistics { locked { counts } }

    /// The error that ended the frames, if any.
    var endingError: VideoError? { locked { failure } }

    /// Called with the mutex held.
    private func takeAllWaiters() -> [CheckedContinuation<VideoFrame?, any Error>] {
        defer { asyncWaiters.removeAll() }
        return asyncWaiters
    }

    /// The ending error, the first time it is asked for (later: `nil`). Called with the mutex held.
    private func reportFailure() -> VideoError? {
        guard !cancelled, let failure, !failureReported else { return nil }
        failureReported = true
        return failure
    }

    /// Ends an async wait at the end of the frames: the ending error once, then `nil`.
    private func resumeAtEnd(_ continuation: CheckedContinuation<VideoFrame?, any Error>) {
        let error = locked { reportFailure() }
        if let error { continuation.resume(throwing: error) } else { continuation.resume(returning: nil) }
    }
}
