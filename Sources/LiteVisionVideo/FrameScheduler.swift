import LiteVisionSystem

/// Hands the frames of several sources to a ``VideoPipeline``'s workers in turn: a free worker gets the waiting
/// frame of the next source after the one served last that has a frame and is not being processed. A source's
/// frames are thus processed one at a time and in order, and each source that keeps up a frame gets an equal
/// share of the workers when they cannot serve them all.
final class FrameScheduler: @unchecked Sendable {
    // @unchecked: `busy`, `finished`, `cursor` and `stopped` are read and written only while `mutex` is held; the
    // mutex and condition live in manually allocated memory whose address never changes.
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private let condition: UnsafeMutablePointer<pthread_cond_t>
    private let sources: [VideoSource]
    /// Whether a worker is processing a frame of the source.
    private var busy: [Bool]
    /// Whether the source has ended (or was retired after its detector failed).
    private var finished: [Bool]
    /// The source to look at first.
    private var cursor = 0
    private var stopped = false

    /// A scheduler of `sources`, which tell it when a frame waits (each source serves one scheduler).
    init(sources: [VideoSource]) {
        self.sources = sources
        busy = Array(repeating: false, count: sources.count)
        finished = Array(repeating: false, count: sources.count)
        mutex = .allocate(capacity: 1)
        pthread_mutex_init(mutex, nil)
        condition = .allocate(capacity: 1)
        pthread_cond_init(condition, nil)
        for source in sources { source.observe { [weak self] in self?.wake() } }
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    /// The next frame to process and the index of its source, waiting until one is ready; `nil` once every source
    /// has ended, or after ``stop()``. The caller calls ``done(_:)`` when it has processed the frame.
    func next() -> (source: Int, frame: VideoFrame)? {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        while !stopped {
            var working = false
            for step in sources.indices {
                let index = (cursor + step) % sources.count
                guard !finished[index] else { continue }
                guard !busy[index] else {
                    working = true
                    continue
                }
                switch sources[index].poll() {
                case .frame(let frame):
                    busy[index] = true
                    cursor = (index + 1) % sources.count
                    return (index, frame)
                case .ended: finished[index] = true
                case .pending: working = true
                }
            }
            // Every source has ended (a busy one has not: it may have another frame once its worker is done).
            if !working {
                pthread_cond_broadcast(condition)
                return nil
            }
            pthread_cond_wait(condition, mutex)
        }
        return nil
    }

    /// A worker has processed its frame of `source`.
    func done(_ source: Int) {
        pthread_mutex_lock(mutex)
        busy[source] = false
        pthread_cond_broadcast(condition)
        pthread_mutex_unlock(mutex)
    }

    /// `source` gets no more frames (its detector failed).
    func retire(_ source: Int) {
        pthread_mutex_lock(mutex)
        busy[source] = false
        finished[source] = true
        pthread_cond_broadcast(condition)
        pthread_mutex_unlock(mutex)
    }

    /// Ends ``next()`` for every worker.
    func stop() {
        pthread_mutex_lock(mutex)
        stopped = true
        pthread_cond_broadcast(condition)
        pthread_mutex_unlock(mutex)
    }

    /// A source has a frame, or ended: the waiting workers look again.
    private func wake() {
        pthread_mutex_lock(mutex)
        pthread_cond_broadcast(condition)
        pthread_mutex_unlock(mutex)
    }
}
