import LiteVisionSystem

/// The deadline of a compiled model's runs. The runtime calls ``check`` between two operators of every subgraph
/// (loops included) on the thread running the model; once the deadline has passed it answers `true` and the
/// runtime stops the run with `kLiteRtStatusCancelled`. The instant is written by that same thread just before
/// and after each run, so it needs no lock.
final class RunDeadline {
    /// Seconds one run may take.
    let timeout: Double
    /// The end of the run in progress, in monotonic seconds; infinity between runs. Its address is the
    /// callback's data.
    let instant: UnsafeMutablePointer<Double>

    init(timeout: Double) {
        self.timeout = timeout
        instant = .allocate(capacity: 1)
        instant.initialize(to: .infinity)
    }

    deinit { instant.deallocate() }

    /// Starts the clock for one run.
    func start() { instant.pointee = Self.now() + timeout }

    /// Ends a run; `true` when its deadline had passed (so a failed run was stopped by it).
    func stop() -> Bool {
        defer { instant.pointee = .infinity }
        return Self.now() >= instant.pointee
    }

    /// The runtime's cancellation callback: whether the deadline at `data` has passed.
    static let check: @convention(c) (UnsafeMutableRawPointer?) -> Bool = { data in
        guard let data else { return false }
        return RunDeadline.now() >= data.load(as: Double.self)
    }

    /// Monotonic time in seconds.
    static func now() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}
