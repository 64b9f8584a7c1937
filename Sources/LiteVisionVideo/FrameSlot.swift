import LiteVisionSystem

/// The hand-over point between the producer thread of a ``LiveFrameSource`` and its consumers: one slot that
/// holds the latest frame not yet taken. A new frame replaces a waiting one (which counts as dropped), the
/// way a camera discards late frames.
final class FrameSlot: @unchecked Sendable {
    // @unchecked: every mutable stored property below is read and written only while `mutex` is held, and
    // the mutex and condition live in manually allocated memory whose address never changes.
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private let condition: UnsafeMutablePointer<pthread_cond_t>
    private var waiting: VideoFrame?
    private var ended = false
    private var cancelled = false
    private var failure: VideoError?
    private var dropped = 0
    private var damaged = 0

    init() {
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

    /// Offers a frame: it replaces any frame still waiting, which counts as dropped.
    func publish(_ frame: VideoFrame, damagedPackets: Int) {
        locked {
            if waiting != nil { dropped += 1 }
            waiting = frame
            damaged = damagedPackets
            pthread_cond_broadcast(condition)
        }
    }

    /// Marks the end of the video (with the error that ended it, if any).
    func end(failure: VideoError?, damagedPackets: Int) {
        locked {
            ended = true
            self.failure = failure
            damaged = damagedPackets
            pthread_cond_broadcast(condition)
        }
    }

    /// Waits until the monotonic time `deadline`; `false` if the source was cancelled meanwhile.
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

    /// The waiting frame, blocking until one arrives; `nil` once the video has ended (or was cancelled) and
    /// no frame is waiting.
    func take() -> VideoFrame? {
        locked {
            while waiting == nil, !ended, !cancelled { pthread_cond_wait(condition, mutex) }
            defer { waiting = nil }
            return cancelled ? nil : waiting
        }
    }

    /// Stops the producer and wakes everyone; later ``take()`` calls return `nil`.
    func cancel() {
        locked {
            cancelled = true
            waiting = nil
            pthread_cond_broadcast(condition)
        }
    }

    var droppedFrames: Int { locked { dropped } }
    var damagedPackets: Int { locked { damaged } }
    var endingError: VideoError? { locked { failure } }
}
