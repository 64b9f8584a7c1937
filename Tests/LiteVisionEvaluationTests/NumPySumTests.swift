import Foundation
import LiteVisionEvaluation
import LiteVisionTestSupport
import Testing

/// NumPySum against numpy's own `sum`, run live: the same bits, where a sum from left to right often differs by an ulp
/// (TrackEval's HOTA divides by such sums, and an ulp can turn a tie in its assignment).
@Suite("NumPySum")
struct NumPySumTests {
    @Test("the same bits as numpy's sum on 400 seeded arrays of 1 to 600 values")
    func sameAsNumPy() throws {
        let script = """
            import json
            import numpy as np
            rng = np.random.default_rng(7)
            cases = []
            for n in range(400):
                length = int(rng.integers(1, 601)) if n >= 8 else [1, 7, 8, 9, 128, 129, 136, 300][n]
                values = rng.random(length) * float(rng.choice([1e-3, 1.0, 1e3]))
                if n % 5 == 0:
                    values = np.full(length, 0.1)
                cases.append({"values": [float(v).hex() for v in values], "sum": float(np.sum(values)).hex()})
            print(json.dumps(cases))
            """
        let result = try LiteVisionExecutable.run(["python3", "-c", script], program: "/usr/bin/env")
        try #require(result.status == 0, "python3 with numpy (scripts/setup.sh --dev): \(result.errors)")
        let cases = try #require(try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [[String: Any]])
        #expect(cases.count == 400)
        var leftToRightDiffers = 0
        for (index, item) in cases.enumerated() {
            let values = try #require(item["values"] as? [String]).compactMap(Double.init)
            let expected = try #require((item["sum"] as? String).flatMap(Double.init))
            #expect(values.count == (item["values"] as? [String])?.count)
            let mine = NumPySum.of(values[...])
            #expect(mine.bitPattern == expected.bitPattern, "case \(index), \(values.count) values: \(mine)")
            if values.reduce(0, +).bitPattern != expected.bitPattern { leftToRightDiffers += 1 }
        }
        // The test can tell: a plain sum misses numpy's bits on many of these arrays.
        #expect(leftToRightDiffers > 100, "\(leftToRightDiffers)")
        // Ten times 0.1: numpy gives exactly 1, a sum from left to right 0.9999999999999999.
        #expect(NumPySum.of(Array(repeating: 0.1, count: 10)[...]) == 1)
    }
}
