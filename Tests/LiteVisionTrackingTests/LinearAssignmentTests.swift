import LiteVisionTestSupport
import LiteVisionTracking
import Testing

@Suite("Linear assignment")
struct LinearAssignmentTests {
    typealias Edge = LinearAssignment.Edge

    @Test("A small case solved by hand")
    func handCase() {
        // Greedy would take (0,0) = 0.9 and then (1,1) = 0.1; the optimum is (0,1) + (1,0) = 0.8 + 0.7.
        let edges = [
            Edge(row: 0, column: 0, weight: 0.9), Edge(row: 0, column: 1, weight: 0.8),
            Edge(row: 1, column: 0, weight: 0.7), Edge(row: 1, column: 1, weight: 0.1),
        ]
        let matches = LinearAssignment.maximumWeightMatching(rowCount: 2, columnCount: 2, edges: edges)
        #expect(matches == [.init(row: 0, column: 1), .init(row: 1, column: 0)])
    }

    @Test("Rows and columns may stay unmatched; only listed pairs are used")
    func sparse() {
        let edges = [
            Edge(row: 0, column: 2, weight: 0.5), Edge(row: 2, column: 2, weight: 0.6),
            Edge(row: 3, column: 0, weight: 0.2),
        ]
        let matches = LinearAssignment.maximumWeightMatching(rowCount: 4, columnCount: 3, edges: edges)
        #expect(matches == [.init(row: 2, column: 2), .init(row: 3, column: 0)])
        #expect(LinearAssignment.maximumWeightMatching(rowCount: 3, columnCount: 0, edges: []).isEmpty)
        #expect(LinearAssignment.maximumWeightMatching(rowCount: 0, columnCount: 0, edges: []).isEmpty)
    }

    @Test("Matches the brute-force optimum on random sparse problems", arguments: 0..<40)
    func bruteForce(seed: Int) {
        var rng = SeededGenerator(seed: UInt64(seed) + 7)
        let rows = Int.random(in: 1...6, using: &rng), columns = Int.random(in: 1...6, using: &rng)
        var edges: [Edge] = []
        for r in 0..<rows {
            for c in 0..<columns where Double.random(in: 0..<1, using: &rng) < 0.5 {
                edges.append(Edge(row: r, column: c, weight: Double(Int.random(in: 1...100, using: &rng)) / 100))
            }
        }
        let matches = LinearAssignment.maximumWeightMatching(rowCount: rows, columnCount: columns, edges: edges)
        var weight: [Int: Double] = [:]
        for e in edges { weight[e.row * 16 + e.column] = e.weight }
        // Valid: allowed pairs, each row and column at most once.
        #expect(Set(matches.map(\.row)).count == matches.count)
        #expect(Set(matches.map(\.column)).count == matches.count)
        #expect(matches.allSatisfy { weight[$0.row * 16 + $0.column] != nil })
        let total = matches.reduce(0) { $0 + weight[$1.row * 16 + $1.column]! }
        #expect(abs(total - best(row: 0, rows: rows, used: 0, weight: weight)) < 1e-9)
    }

    /// The best total weight by trying every matching.
    private func best(row: Int, rows: Int, used: Int, weight: [Int: Double]) -> Double {
        guard row < rows else { return 0 }
        var result = best(row: row + 1, rows: rows, used: used, weight: weight)
        for column in 0..<16 where used & (1 << column) == 0 {
            if let w = weight[row * 16 + column] {
                result = max(result, w + best(row: row + 1, rows: rows, used: used | (1 << column), weight: weight))
            }
        }
        return result
    }
}
