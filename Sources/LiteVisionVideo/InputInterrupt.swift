import CFFmpeg
import Synchronization

/// FFmpeg's interrupt callback for one network or device input: every blocking call (connecting, reading,
/// probing) polls it and gives up when the source is stopped or the current deadline has passed. This is how a
/// stalled server becomes an error instead of a hang, and how ``VideoSource/stop()`` ends a read within FFmpeg's
/// polling interval (100 ms).
final class InputInterrupt: Sendable {
    /// Why the last blocking call was interrupted.
    enum Cause: Int { case none = 0, stopped, deadline }

    private let stopped = Atomic<Bool>(false)
    /// The deadline on the monotonic clock, in nanoseconds; `Int64.max` when none.
    private let deadline = Atomic<Int64>(.max)
    private let cause = Atomic<Int>(Cause.none.rawValue)

    /// Gives the next blocking calls `seconds` from now (a non-finite or huge value: no deadline).
    func arm(seconds: Double) {
        let nanoseconds = seconds.isFinite && seconds < 1e9 ? Int64(seconds * 1e9) : Int64.max / 2
        deadline.store(Self.now() &+ nanoseconds, ordering: .relaxed)
        cause.store(Cause.none.rawValue, ordering: .relaxed)
    }

    /// Makes every blocking call give up, now and from now on.
    func stop() { stopped.store(true, ordering: .relaxed) }

    /// Whether ``stop()`` was called.
    var isStopped: Bool { stopped.load(ordering: .relaxed) }

    /// Why the last blocking call gave up, if the callback made it.
    var lastCause: Cause { Cause(rawValue: cause.load(ordering: .relaxed)) ?? .none }

    /// Called by FFmpeg, often: non-zero ends the blocking call with `AVERROR_EXIT`.
    private func shouldInterrupt() -> Int32 {
        if stopped.load(ordering: .relaxed) {
            cause.store(Cause.stopped.rawValue, ordering: .relaxed)
            return 1
        }
        if Self.now() > deadline.load(ordering: .relaxed) {
            cause.store(Cause.deadline.rawValue, ordering: .relaxed)
            return 1
        }
        return 0
    }

    /// The callback to put into an `AVFormatContext`. The context must not outlive this object (the source
    /// keeps both, and frees the context first).
    var callback: AVIOInterruptCB {
        AVIOInterruptCB(
            callback: { opaque in
                guard let opaque else { return 0 }
                return Unmanaged<InputInterrupt>.fromOpaque(opaque).takeUnretainedValue().shouldInterrupt()
            },
            opaque: Unmanaged.passUnretained(self).toOpaque())
    }

    private static func now() -> Int64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec)
    }
}
