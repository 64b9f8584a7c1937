/// Maximum-weight bipartite matching on a sparse set of allowed pairs, with reusable buffers.
///
/// Rows and columns are split into connected components of the graph of allowed pairs (union–find); a
/// component with a single pair is matched directly, and each larger one is solved exactly with the
/// Hungarian method on its small dense matrix (cost `-weight` for an allowed pair, 0 for a forbidden one, so
/// that leaving a row unmatched is never worse than a forbidden pair). With boxes that overlap only their
/// neighbours, the work is close to linear in the number of pairs.
struct AssignmentWorkspace: Sendable {
    private var edgeRows: [Int] = []
    private var edgeColumns: [Int] = []
    private var edgeWeights: [Double] = []
    private var parent: [Int] = []
    private var componentOfRoot: [Int] = []
    private var componentStart: [Int] = []
    private var edgeOrder: [Int] = []
    private var cursor: [Int] = []
    private var localIndex: [Int] = []
    private var localRows: [Int] = []
    private var localColumns: [Int] = []
    private var cost: [Double] = []
    private var localAssignment: [Int] = []
    private var hungarian = HungarianSolver()
    private var rowCount = 0
    private var columnCount = 0

    /// For each row, the matched column or -1 (valid after ``solve()``).
    private(set) var rowMatch: [Int] = []
    /// For each column, the matched row or -1 (valid after ``solve()``).
    private(set) var columnMatch: [Int] = []

    /// Starts a new problem of `rows × columns` with no allowed pair.
    mutating func begin(rows: Int, columns: Int) {
        rowCount = rows
        columnCount = columns
        edgeRows.removeAll(keepingCapacity: true)
        edgeColumns.removeAll(keepingCapacity: true)
        edgeWeights.removeAll(keepingCapacity: true)
    }

    /// Allows pairing `row` with `column` for a gain of `weight` (> 0).
    @inline(__always)
    mutating func addEdge(row: Int, column: Int, weight: Double) {
        edgeRows.append(row)
        edgeColumns.append(column)
        edgeWeights.append(weight)
    }

    /// Finds the matching of largest total weight among the allowed pairs.
    mutating func solve() {
        Self.fill(&rowMatch, rowCount, -1)
        Self.fill(&columnMatch, columnCount, -1)
        let edgeCount = edgeRows.count
        guard edgeCount > 0 else { return }
        let nodeCount = rowCount + columnCount
        if parent.count < nodeCount { parent = [Int](repeating: 0, count: nodeCount) }
        for i in 0..<nodeCount { parent[i] = i }
        for e in 0..<edgeCount { union(edgeRows[e], rowCount + edgeColumns[e]) }

        // Number the components that have edges, and group the edges by component (counting sort).
        Self.fill(&componentOfRoot, nodeCount, -1)
        componentStart.removeAll(keepingCapacity: true)
        for e in 0..<edgeCount {
            let root = find(edgeRows[e])
            if componentOfRoot[root] < 0 {
                componentOfRoot[root] = componentStart.count
                componentStart.append(0)
            }
            componentStart[componentOfRoot[root]] += 1
        }
        let componentCount = componentStart.count
        var running = 0
        for c in 0..<componentCount {
            let size = componentStart[c]
            componentStart[c] = running
            running += size
        }
        componentStart.append(running)
        Self.fill(&edgeOrder, edgeCount, 0)
        cursor.removeAll(keepingCapacity: true)
        cursor.append(contentsOf: componentStart)
        for e in 0..<edgeCount {
            let c = componentOfRoot[find(edgeRows[e])]
            edgeOrder[cursor[c]] = e
            cursor[c] += 1
        }
        Self.fill(&localIndex, nodeCount, -1)
        for c in 0..<componentCount {
            let start = componentStart[c], end = componentStart[c + 1]
            if end - start == 1 {
                let e = edgeOrder[start]
                rowMatch[edgeRows[e]] = edgeColumns[e]
                columnMatch[edgeColumns[e]] = edgeRows[e]
            } else {
                solveComponent(edgeOrder[start..<end])
            }
        }
    }

    private mutating func solveComponent(_ edges: ArraySlice<Int>) {
        localRows.removeAll(keepingCapacity: true)
        localColumns.removeAll(keepingCapacity: true)
        for e in edges {
            let r = edgeRows[e], c = rowCount + edgeColumns[e]
            if localIndex[r] < 0 { localIndex[r] = localRows.count; localRows.append(edgeRows[e]) }
            if localIndex[c] < 0 { localIndex[c] = localColumns.count; localColumns.append(edgeColumns[e]) }
        }
        // The Hungarian solver wants rows <= columns: transpose when needed.
        let transposed = localRows.count > localColumns.count
        let n = transposed ? localColumns.count : localRows.count
        let m = transposed ? localRows.count : localColumns.count
        Self.fill(&cost, n * m, 0)
        for e in edges {
            let r = localIndex[edgeRows[e]], c = localIndex[rowCount + edgeColumns[e]]
            let index = transposed ? c * m + r : r * m + c
            cost[index] = min(cost[index], -edgeWeights[e])
        }
        Self.fill(&localAssignment, n, -1)
        cost.withUnsafeBufferPointer { buffer in
            hungarian.solve(cost: buffer, rows: n, columns: m, assignment: &localAssignment)
        }
        for i in 0..<n {
            let j = localAssignment[i]
            guard j >= 0, cost[i * m + j] < 0 else { continue }  // a forbidden pair means "unmatched"
            let row = transposed ? localRows[j] : localRows[i]
            let column = transposed ? localColumns[i] : localColumns[j]
            rowMatch[row] = column
            columnMatch[column] = row
        }
        for r in localRows { localIndex[r] = -1 }
        for c in localColumns { localIndex[rowCount + c] = -1 }
    }

    @inline(__always)
    private mutating func find(_ node: Int) -> Int {
        var root = node
        while parent[root] != root { root = parent[root] }
        var current = node
        while parent[current] != root {
            let next = parent[current]
            parent[current] = root
            current = next
        }
        return root
    }

    @inline(__always)
    private mutating func union(_ a: Int, _ b: Int) {
        let ra = find(a), rb = find(b)
        if ra != rb { parent[max(ra, rb)] = min(ra, rb) }
    }

    @inline(__always)
    private static func fill<T>(_ array: inout [T], _ count: Int, _ value: T) {
        if array.count < count {
            array = [T](repeating: value, count: count)
        } else {
            for i in 0..<count { array[i] = value }
        }
    }
}
