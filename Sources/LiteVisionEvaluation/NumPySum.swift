/// Sums as numpy's `sum` sums a contiguous run of `float64` values, bit for bit: pairwise, with eight running totals
/// over blocks of 8 values, runs of more than 128 split in two (its `pairwise_sum`), added to 0. A plain loop from left
/// to right rounds differently for 8 values or more, by an ulp or so: enough, where TrackEval's HOTA divides by such
/// sums, to turn an exact tie in its per-frame assignment the other way, and so to match other boxes than TrackEval.
package enum NumPySum {
    /// The sum of `values` as numpy's `values.sum()` gives it.
    package static func of(_ values: ArraySlice<Double>) -> Double {
        0 + pairwise(values)
    }

    /// numpy's `pairwise_sum` on `values`.
    private static func pairwise(_ values: ArraySlice<Double>) -> Double {
        let n = values.count, start = values.startIndex
        if n < 8 {
            var total = 0.0
            for value in values { total += value }
            return total
        }
        if n <= 128 {
            var r = (
                values[start], values[start + 1], values[start + 2], values[start + 3], values[start + 4],
                values[start + 5], values[start + 6], values[start + 7]
            )
            var i = 8
            while i < n - n % 8 {
                let b = start + i
                r.0 += values[b]
                r.1 += values[b + 1]
                r.2 += values[b + 2]
                r.3 += values[b + 3]
                r.4 += values[b + 4]
                r.5 += values[b + 5]
                r.6 += values[b + 6]
                r.7 += values[b + 7]
                i += 8
            }
            var total = ((r.0 + r.1) + (r.2 + r.3)) + ((r.4 + r.5) + (r.6 + r.7))
            while i < n {
                total += values[start + i]
                i += 1
            }
            return total
        }
        let half = n / 2 - (n / 2) % 8
        return pairwise(values[start..<(start + half)]) + pairwise(values[(start + half)...])
    }
}
