import LiteVisionTracking

/// The rate at which a stream's frames reach the tracker, measured from their timestamps, as the tracker should go
/// by it (``TrackingOptions/frameRate``).
///
/// The rate is the inverse of the mean of the middle of the latest 30 intervals (sorted, 5 left out at each end), so
/// that gaps (a reconnection, a stall) and late frames do not move it, and a detector that takes every first or second
/// frame of a camera as it is free gives a steady rate between the two. Frames dropped before detection (a live source
/// whose detector is busy) lengthen the intervals, as they should: between two frames the tracker sees, objects move
/// that much farther. Once 10 intervals are known, the rate is held on its side of
/// ``TrackingOptions/lowFrameRateThreshold`` until it passes 20 % beyond (under 16.7 fps to go low, from 24 fps to go
/// back), so that a source at about 20 fps does not switch the tracker's rules every few frames: held, it is given as
/// 20 fps (the high side) or just under (the low side). Before that the first frames (a burst read ahead, frames
/// dropped while the first detection ran) decide nothing for good.
struct FrameRateMeter: Sendable {
    /// How many of the latest intervals the rate is measured over.
    static let window = 30
    /// Intervals longer than this, in seconds, are gaps (a stream lost and back, a paused file), not frames; a
    /// timestamp this much earlier than the last is another video.
    static let longestInterval = 2.0
    /// How far past ``TrackingOptions/lowFrameRateThreshold`` (as a factor) a rate must go to change sides.
    static let hysteresis = 1.2
    /// How many intervals must be known before the rate is held on its side of the threshold.
    static let holdingFrom = 10

    /// The latest intervals, oldest overwritten first once the window is full.
    private var intervals: [Double] = []
    /// Where the next interval goes in ``intervals`` once it is full.
    private var next = 0
    /// Scratch for sorting ``intervals``, kept between frames so that measuring allocates nothing after the first
    /// frames.
    private var sorted: [Double] = []
    /// The last frame's timestamp.
    private var last: Double?
    /// The rate given last, on its side of ``TrackingOptions/lowFrameRateThreshold`` (which is the side it holds).
    private var rate: Double?

    init() {
        intervals.reserveCapacity(Self.window)
        sorted.reserveCapacity(Self.window)
    }

    /// Takes the timestamp of the next frame, in seconds, and returns the frame rate the tracker should go by, in
    /// frames per second: `nil` until two frames at most ``longestInterval`` apart. A timestamp that is not finite,
    /// equal to the last or a little earlier (frames handed over slightly out of order) is ignored; one more than
    /// ``longestInterval`` earlier (another video) starts the measure anew.
    mutating func add(_ timestamp: Double) -> Double? {
        guard timestamp.isFinite else { return rate }
        guard let last else {
            self.last = timestamp
            return rate
        }
        if timestamp < last - Self.longestInterval {
            restart(at: timestamp)
            return nil
        }
        guard timestamp > last else { return rate }
        self.last = timestamp
        let interval = timestamp - last
        guard interval <= Self.longestInterval else { return rate }
        if intervals.count < Self.window {
            intervals.append(interval)
        } else {
            intervals[next] = interval
            next = (next + 1) % Self.window
        }
        let measured = middleRate()
        // Held on its side of the threshold until it passes 20 % beyond (see the type).
        let threshold = TrackingOptions.lowFrameRateThreshold
        let low: Bool
        switch intervals.count < Self.holdingFrom ? nil : rate.map({ $0 < threshold }) {
        case true?: low = measured < threshold * Self.hysteresis
        case false?: low = measured < threshold / Self.hysteresis
        case nil: low = measured < threshold
        }
        rate = low ? min(measured, threshold.nextDown) : max(measured, threshold)
        return rate
    }

    /// The inverse of the mean of the middle intervals (at least one interval is known).
    private mutating func middleRate() -> Double {
        sorted.removeAll(keepingCapacity: true)
        sorted.append(contentsOf: intervals)
        sorted.sort()
        let dropped = (sorted.count - 1) / 5
        var sum = 0.0
        for index in dropped..<(sorted.count - dropped) { sum += sorted[index] }
        return Double(sorted.count - 2 * dropped) / sum
    }

    /// Forgets every interval, the last timestamp becoming `timestamp`.
    private mutating func restart(at timestamp: Double) {
        intervals.removeAll(keepingCapacity: true)
        next = 0
        last = timestamp
        rate = nil
    }
}
