/// Linear assignment on sparse bipartite graphs: the matching step of the tracker, exposed for tools such as
/// metrics that need the same exact optimum.
package enum LinearAssignment {
    /// An allowed pairing of a row with a column, worth `weight` (which must be positive).
    package struct Edge: Sendable, Equatable {
        /// The row (for the tracker: a track).
        package var row: Int
        /// The column (for the tracker: a detection).
        package var column: Int
        /// What choosing this pair gains; pairs that are not listed can never be chosen.
        package var weight: Double

        /// An allowed pair and its weight.
        package init(row: Int, column: Int, weight: Double) {
            self.row = row
            self.column = column
            self.weight = weight
        }
    }

    /// A chosen pair.
    package struct Match: Sendable, Equatable, Hashable {
        /// The row.
        package var row: Int
        /// The column.
        package var column: Int

        /// A pair.
        package init(row: Int, column: Int) {
            self.row = row
            self.column = column
        }
    }

    /// The matching of largest total weight that uses only the given pairs, each row and column at most once
    /// (rows and columns may stay unmatched). Exact: connected groups of pairs are solved with the Hungarian
    /// method. Minimizing a cost `c` with a rejection threshold `t` (as LAPJV's `cost_limit`) is the same as
    /// maximizing `t - c` over the pairs with `c < t`.
    /// - Parameters:
    ///   - rowCount: rows are `0..<rowCount`.
    ///   - columnCount: columns are `0..<columnCount`.
    ///   - edges: the allowed pairs; non-positive weights are ignored; for a repeated pair the largest counts.
    /// - Returns: the chosen pairs, sorted by row.
    package static func maximumWeightMatching(rowCount: Int, columnCount: Int, edges: [Edge]) -> [Match] {
        precondition(rowCount >= 0 && columnCount >= 0, "LinearAssignment: negative size")
        var workspace = AssignmentWorkspace()
        workspace.begin(rows: rowCount, columns: columnCount)
        for edge in edges where edge.weight > 0 {
            precondition(
                (0..<rowCount).contains(edge.row) && (0..<columnCount).contains(edge.column),
                "LinearAssignment: edge out of range")
            workspace.addEdge(row: edge.row, column: edge.column, weight: edge.weight)
        }
        workspace.solve()
        var matches: [Match] = []
        for row in 0..<rowCount where workspace.rowMatch[row] >= 0 {
            matches.append(Match(row: row, column: workspace.rowMatch[row]))
        }
        return matches
    }
}
