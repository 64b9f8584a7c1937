/// The Hungarian method (Kuhn–Munkres with row potentials and shortest augmenting paths) for a dense
/// rectangular cost matrix with no more rows than columns: assigns every row to a distinct column with the
/// least total cost, in `O(rows² · columns)` time.
///
/// The buffers are kept between calls so that the tracker's per-frame work does not allocate.
struct HungarianSolver: Sendable {
    private var rowPotential: [Double] = []
    private var columnPotential: [Double] = []
    private var columnOwner: [Int] = []
    private var previousColumn: [Int] = []
    private var minimumSlack: [Double] = []
    private var visited: [Bool] = []

    /// Solves for `cost` (row-major, `rows × columns`, `rows <= columns`) and writes the column chosen for each
    /// row into `assignment[0..<rows]`.
    mutating func solve(
        cost: UnsafeBufferPointer<Double>, rows: Int, columns: Int,
        assignment: inout [Int]
    ) {
        precondition(rows <= columns && cost.count >= rows * columns)
        // 1-based internally: column 0 is the virtual start of each augmenting path.
        Self.reset(&rowPotential, rows + 1, 0.0)
        Self.reset(&columnPotential, columns + 1, 0.0)
        Self.reset(&columnOwner, columns + 1, 0)
        Self.reset(&previousColumn, columns + 1, 0)
        Self.reset(&minimumSlack, columns + 1, 0.0)
        Self.reset(&visited, columns + 1, false)
        if assignment.count < rows { assignment.append(contentsOf: repeatElement(-1, count: rows - assignment.count)) }
        guard rows > 0 else { return }

        for row in 1...rows {
            columnOwner[0] = row
            var current = 0
            for j in 0...columns {
                minimumSlack[j] = .infinity
                visited[j] = false
            }
            repeat {
                visited[current] = true
                let owner = columnOwner[current]
                var delta = Double.infinity
                var next = 0
                let base = (owner - 1) * columns
                for j in 1...columns where !visited[j] {
                    let slack = cost[base + j - 1] - rowPotential[owner] - columnPotential[j]
                    if slack < minimumSlack[j] {
                        minimumSlack[j] = slack
                        previousColumn[j] = current
                    }
                    if minimumSlack[j] < delta {
                        delta = minimumSlack[j]
                        next = j
                    }
                }
                for j in 0...columns {
                    if visited[j] {
                        rowPotential[columnOwner[j]] += delta
                        columnPotential[j] -= delta
                    } else {
                        minimumSlack[j] -= delta
                    }
                }
                current = next
            } while columnOwner[current] != 0
            // Flip the augmenting path.
            repeat {
                let previous = previousColumn[current]
                columnOwner[current] = columnOwner[previous]
                current = previous
            } while current != 0
        }
        for j in 1...columns where columnOwner[j] != 0 {
            assignment[columnOwner[j] - 1] = j - 1
        }
    }

    @inline(__always)
    private static func reset<T>(_ array: inout [T], _ count: Int, _ value: T) {
        if array.count < count {
            array = [T](repeating: value, count: count)
        } else {
            for i in 0..<count { array[i] = value }
        }
    }
}
