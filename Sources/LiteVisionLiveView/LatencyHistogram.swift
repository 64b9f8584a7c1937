/// Counts of processing latencies in the buckets of a Prometheus histogram.
struct LatencyHistogram: Sendable {
    /// The buckets' upper bounds, in seconds (Prometheus' `le`): 5 ms to 10 s.
    static let bounds: [Double] = [0.005, 0.01, 0.02, 0.03, 0.05, 0.075, 0.1, 0.2, 0.5, 1, 2, 5, 10]

    /// Observations at or under each bound (cumulative, as Prometheus reports them, is computed when rendered).
    private(set) var counts = [Int](repeating: 0, count: Self.bounds.count)
    private(set) var count = 0
    private(set) var sum = 0.0

    /// Adds a latency of `seconds`.
    mutating func observe(_ seconds: Double) {
        count += 1
        sum += seconds
        if let bucket = Self.bounds.firstIndex(where: { seconds <= $0 }) { counts[bucket] += 1 }
    }

    /// The cumulative count for each bound.
    var cumulative: [Int] {
        var total = 0
        return counts.map { count in
            total += count
            return total
        }
    }
}
