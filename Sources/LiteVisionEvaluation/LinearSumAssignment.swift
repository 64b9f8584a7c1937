/// The rectangular linear sum assignment of the tracking metrics: the same shortest augmenting path method as
/// SciPy's `linear_sum_assignment` (Crouse's modification of Jonker–Volgenant, no initialization), scanning
/// columns in the same order, so that among equally good assignments it picks the one TrackEval's metrics get.
package enum LinearSumAssignment {
    /// The assignment of least total cost: `min(rows, columns)` pairs `(row, column)`, sorted by row.
    /// `cost` is row-major, `rows × columns`, with no NaN or -∞ (callers build it from finite numbers).
    package static func minimumCost(_ cost: [Double], rows: Int, columns: Int) -> [(row: Int, column: Int)] {
        precondition(cost.count == rows * columns, "LinearSumAssignment: the matrix has the wrong size")
        guard rows > 0, columns > 0 else { return [] }
        let transpose = columns < rows
        var matrix = cost
        var (nr, nc) = (rows, columns)
        if transpose {
            for i in 0..<rows {
                for j in 0..<columns { matrix[j * rows + i] = cost[i * columns + j] }
            }
            swap(&nr, &nc)
        }
        var u = [Double](repeating: 0, count: nr)
        var v = [Double](repeating: 0, count: nc)
        var shortestPathCosts = [Double](repeating: 0, count: nc)
        var path = [Int](repeating: -1, count: nc)
        var col4row = [Int](repeating: -1, count: nr)
        var row4col = [Int](repeating: -1, count: nc)
        var sr = [Bool](repeating: false, count: nr)
        var sc = [Bool](repeating: false, count: nc)
        var remaining = [Int](repeating: 0, count: nc)

        for currentRow in 0..<nr {
            // The shortest augmenting path from currentRow.
            var minValue = 0.0
            var remainingCount = nc
            for it in 0..<nc { remaining[it] = nc - it - 1 }
            for i in 0..<nr { sr[i] = false }
            for j in 0..<nc {
                sc[j] = false
                shortestPathCosts[j] = .infinity
            }
            var i = currentRow
            var sink = -1
            while sink == -1 {
                var index = -1
                var lowest = Double.infinity
                sr[i] = true
                for it in 0..<remainingCount {
                    let j = remaining[it]
                    let r = minValue + matrix[i * nc + j] - u[i] - v[j]
                    if r < shortestPathCosts[j] {
                        path[j] = i
                        shortestPathCosts[j] = r
                    }
                    if shortestPathCosts[j] < lowest || (shortestPathCosts[j] == lowest && row4col[j] == -1) {
                        lowest = shortestPathCosts[j]
                        index = it
                    }
                }
                minValue = lowest
                // Finite costs always leave a path (every row can take any column).
                precondition(minValue != .infinity && index >= 0, "LinearSumAssignment: infeasible matrix")
                let j = remaining[index]
                if row4col[j] == -1 { sink = j } else { i = row4col[j] }
                sc[j] = true
                remainingCount -= 1
                remaining[index] = remaining[remainingCount]
            }
            // Update the dual variables.
            u[currentRow] += minValue
            for row in 0..<nr where sr[row] && row != currentRow {
                u[row] += minValue - shortestPathCosts[col4row[row]]
            }
            for column in 0..<nc where sc[column] {
                v[column] -= minValue - shortestPathCosts[column]
            }
            // Augment the previous solution.
            var j = sink
            while true {
                let row = path[j]
                row4col[j] = row
                swap(&col4row[row], &j)
                if row == currentRow { break }
            }
        }
        if transpose {
            return col4row.indices.sorted { col4row[$0] < col4row[$1] }.map { (row: col4row[$0], column: $0) }
        }
        return col4row.enumerated().map { (row: $0, column: $1) }
    }
}
