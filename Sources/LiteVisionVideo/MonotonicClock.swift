import LiteVisionSystem

/// Seconds on the monotonic clock (unaffected by changes of the wall-clock time).
enum MonotonicClock {
    /// The current time in seconds since an arbitrary fixed point.
    static func now() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    /// `seconds` (a value of ``now()``) as a `timespec` for `pthread_cond_timedwait`.
    static func deadline(at seconds: Double) -> timespec {
        let whole = seconds.rounded(.down)
        var time = timespec()
        time.tv_sec = Int(whole)
        time.tv_nsec = Int((seconds - whole) * 1e9)
        return time
    }
}
