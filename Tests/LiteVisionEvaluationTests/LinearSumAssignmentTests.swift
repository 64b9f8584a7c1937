import Foundation
import LiteVisionEvaluation
import LiteVisionTestSupport
import Testing

/// LinearSumAssignment against SciPy's `linear_sum_assignment` (which TrackEval calls), run live: the same pairs,
/// not only the same total, on matrices full of ties, wide and tall.
@Suite("LinearSumAssignment")
struct LinearSumAssignmentTests {
    @Test("the same assignment as SciPy on 300 seeded matrices with ties")
    func sameAsSciPy() throws {
        let script = """
            import json, random, sys
            import numpy as np
            from scipy.optimize import linear_sum_assignment
            rng = random.Random(11)
            cases = []
            for n in range(300):
                rows, columns = rng.randint(1, 9), rng.randint(1, 9)
                kind = n % 3
                if kind == 0:
                    values = [rng.choice([0, 0, 1, 2, 3]) for _ in range(rows * columns)]
                elif kind == 1:
                    values = [-rng.choice([0.0, 0.25, 0.5, 1000.5, 1000.25]) for _ in range(rows * columns)]
                else:
                    values = [-round(rng.random(), 2) for _ in range(rows * columns)]
                r, c = linear_sum_assignment(np.array(values, dtype=float).reshape(rows, columns))
                cases.append({"rows": rows, "columns": columns, "cost": values,
                              "pairs": [[int(a), int(b)] for a, b in zip(r, c)]})
            print(json.dumps(cases))
            """
        let result = try LiteVisionExecutable.run(["python3", "-c", script], program: "/usr/bin/env")
        try #require(result.status == 0, "python3 with numpy and scipy (scripts/setup.sh --dev): \(result.errors)")
        let cases = try #require(try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [[String: Any]])
        #expect(cases.count == 300)
        for (index, item) in cases.enumerated() {
            let rows = try #require(item["rows"] as? Int)
            let columns = try #require(item["columns"] as? Int)
            let cost = try #require(item["cost"] as? [Double])
            let expected = try #require(item["pairs"] as? [[Int]])
            let mine = LinearSumAssignment.minimumCost(cost, rows: rows, columns: columns).map { [$0.row, $0.column] }
            #expect(mine == expected, "case \(index): \(rows)x\(columns) \(cost)")
        }
    }

    @Test("empty matrices have no pairs")
    func empty() {
        #expect(LinearSumAssignment.minimumCost([], rows: 0, columns: 4).isEmpty)
        #expect(LinearSumAssignment.minimumCost([], rows: 3, columns: 0).isEmpty)
    }
}
