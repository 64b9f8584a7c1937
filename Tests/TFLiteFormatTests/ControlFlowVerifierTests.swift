import LiteVisionTestSupport
import Testing

@testable import TFLiteFormat

/// Control flow a publisher could craft against every client: nesting deeper than the runtime's stack (a chain of
/// 50,000 `CALL_ONCE` subgraphs crashed `label` with SIGSEGV), too many subgraphs, and `WHILE` loops that provably
/// never end.
@Suite("Model verifier: control flow")
struct ControlFlowVerifierTests {
    private func refusal(_ bytes: [UInt8]) -> String? {
        thrownError { try TFLiteModelFile(bytes: bytes) }?.description
    }

    @Test("a loop that counts to 5 and 64 nested CALL_ONCE subgraphs are accepted")
    func wellBehaved() {
        #expect(refusal(ControlFlowModels.classifier()) == nil)
        #expect(refusal(ControlFlowModels.classifier(chain: 64)) == nil)
        #expect(refusal(ControlFlowModels.classifier(loop: .stuck)) == nil, "only running it shows it never ends")
    }

    @Test("65 nested CALL_ONCE subgraphs are refused, naming the chain")
    func tooDeep() throws {
        let message = try #require(refusal(ControlFlowModels.classifier(chain: 65)))
        #expect(message.contains("nest subgraphs 65 deep below subgraph 0"), "\(message)")
        #expect(message.contains("subgraphs 0 → 3 → 4 → 5 → 6 → 7 → …"), "\(message)")
        #expect(message.contains("at most 64 levels"), "\(message)")
    }

    @Test("a chain of 50,000 CALL_ONCE subgraphs is refused by its subgraph count, at once")
    func fiftyThousand() throws {
        let bytes = ControlFlowModels.classifier(chain: 50_000)
        let started = ContinuousClock.now
        let message = try #require(refusal(bytes))
        #expect(message.contains("the model has 50003 subgraphs; LiteVision accepts at most 1000"), "\(message)")
        #expect(ContinuousClock.now - started < .seconds(2))
        // Under the count limit, the depth limit still applies: the first subgraph found too deep is named.
        let nested = try #require(refusal(ControlFlowModels.classifier(chain: 997)))
        #expect(nested.contains("nest subgraphs 65 deep below subgraph 934"), "\(nested)")
    }

    @Test("a WHILE whose condition is the constant true is refused")
    func constantTrue() throws {
        let message = try #require(refusal(ControlFlowModels.classifier(loop: .constantTrue)))
        #expect(
            message.contains(
                "the WHILE loop of operator 0 of subgraph 0 never ends: its condition (subgraph 1) is the constant true"
            ),
            "\(message)")
    }

    @Test("a WHILE whose body hands its condition on unchanged is refused")
    func unchangedCondition() throws {
        let message = try #require(refusal(ControlFlowModels.classifier(loop: .unchangedCondition)))
        #expect(message.contains("never ends once it starts: its condition is loop variable 0"), "\(message)")
    }

    @Test("200,000 operators calling one subgraph each, twice over, are checked in linear time")
    func manyCallsOfOneSubgraph() {
        // Subgraph 0: 200,000 CALL_ONCE operators (one table, aliased) running subgraph 1, which has as many running
        // subgraph 2: walking every call path would take 4·10^10 steps.
        func calls(_ callee: Int32) -> FBNode {
            .table([
                0: .node(.tables([])), 1: .node(.int32s([])), 2: .node(.int32s([])),
                3: .node(
                    .repeatedTable(
                        .table([
                            0: .u32(0), 1: .node(.int32s([])), 2: .node(.int32s([])), 3: .u8(103),
                            4: .node(.table([0: .i32(callee)])),
                        ]), count: 200_000)),
            ])
        }
        let bytes = FBWriter.buffer(
            root: .table([
                0: .u32(3), 1: .node(.tables([.table([0: .i8(127), 3: .i32(129)])])),
                2: .node(.tables([calls(1), calls(2), .table([0: .node(.tables([]))])])),
                4: .node(.tables([.table([:])])),
            ]), identifier: "TFL3")
        let started = ContinuousClock.now
        _ = refusal(bytes)  // accepted or refused by the verifier's work budget: either way, promptly
        // Linear: ~1 s on a busy 2-core machine, reading the 400,000 operators; walking every path would take hours.
        #expect(ContinuousClock.now - started < .seconds(10))
    }
}
