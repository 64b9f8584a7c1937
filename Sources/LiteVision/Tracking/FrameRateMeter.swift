/// The rate at which a stream's frames reach the tracker, measured from their timestamps: the median of the
/// latest intervals, so that one gap (a reconnection, a stall) or one late frame does not move it. Frames dropped
/// before detection (a live source whose detector is busy) lengthen the intervals, as they should: between two
/// frames the tracker sees, objects move that much farther.
struct FrameRateMeter: Sendable {
    /// How many of the latest intervals the median is taken over.
    static let window = 15
    /// Intervals longer than this, in seconds, are gaps (a stream lost and back, a paused file), not frames.
    static let longestInterval = 2.0

    /// The latest intervals, oldest overwritten first once the window is full.
    private var intervals: [Double] = []
    /// Where the next interval goes in ``intervals`` once it is full.
    private var next = 0
    /// ``intervals`` sorted, kept between frames so that measuring allocates nothing after the first frames.
    private var sorted: [Double] = []
    /// The last frame's timestamp.
    private var last: Double?

    init() {
        intervals.reserveCapacity(Self.window)
        sorted.reserveCapacity(Self.window)
    }

    /// Takes the timestamp of the next frame, in seconds, and returns the frame rate measured so far in frames per
    /// second: `nil` until two frames less than ``longestInterval`` apart. A timestamp that is not finite, or
    /// equal to the last, is ignored; one earlier than the last (another video) starts the measure anew.
    mutating func add(_ timestamp: Double) -> Double? {
        guard timestamp.isFinite else { return rate }
        if let last, timestamp < last { self = Self() }
        defer { last = timestamp }
        guard let last, timestamp > last else { return rate }
        let interval = timestamp - last
        guard interval <= Self.longestInterval else { return rate }
        if intervals.count < Self.window {
            intervals.append(interval)
        } else {
            intervals[next] = interval
            next = (next + 1) % Self.window
        }
        sorted.removeAll(keepingCapacity: true)
        sorted.append(contentsOf: intervals)
        sorted.sort()
        return rate
    }

    /// The frame rate measured so far (the inverse of the median interval), `nil` before the first interval.
    private var rate: Double? {
        guard !sorted.isEmpty else { return nil }
        let middle = sorted.count / 2
        let median = sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
        return 1 / median
    }
}
