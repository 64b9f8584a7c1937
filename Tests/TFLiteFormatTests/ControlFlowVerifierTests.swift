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
                "the WHILE loop of operator 0 of subgraph 0 never ends: its condition (subgraph 1) is the constant true"),
            "\(message)")
    }

    @Test("a WHILE whose body hands its condition on unchanged is refused")
    func unchangedCondition() throws {
        let message = try #require(refusal(ControlFlowModels.classifier(loop: .unchangedCondition)))
        #expect(message.contains("never ends once it starts: its condition is loop variable 0"), "\(message)")
    }
}
