// The control-flow checks of the model verifier. Operators such as CALL_ONCE, IF and WHILE run other subgraphs;
// the runtime prepares and runs them recursively, so a cycle or a very deep chain overflows its stack, and a
// WHILE loop whose condition can never become false runs forever. What can be proved from the file is refused
// here; a loop that only the data can end is bounded at run time by the inference deadline (LiteRT checks it
// between operators).

/// What the control-flow checks keep of one subgraph.
struct SubgraphFlow {
    /// How many operators it runs.
    var operatorCount: Int
    /// Its input and output tensors.
    var inputs: [Int32], outputs: [Int32]
    /// For each output, whether it is a constant whose first byte is not zero: `true` as a loop condition.
    var constantTrueOutputs: [Bool]
}

/// A WHILE loop (TFLite's or StableHLO's) met while verifying.
struct WhileLoop {
    /// The subgraph holding the operator, and the operator ("operator 3 of subgraph 0").
    var subgraph: Int, what: String
    /// The subgraph computing the condition, and the one computing the next state.
    var condition: Int, body: Int
}

extension ModelVerifier {
    /// Refuses recursion, nesting deeper than ``ModelLimits/maximumControlFlowDepth``, and loops that provably
    /// never end.
    func verifyControlFlow() throws(ModelFileError) {
        try verifyCallGraph()
        for loop in whileLoops { try verifyLoopCanEnd(loop) }
    }

    /// One depth-first walk of the calls between subgraphs (each callee once per caller, however many operators
    /// call it: linear in subgraphs and distinct calls), refusing:
    /// - a subgraph that runs itself, directly or through others: the runtime prepares the subgraphs a
    ///   control-flow operator names recursively, so a cycle would overflow its stack;
    /// - chains of subgraphs running subgraphs deeper than ``ModelLimits/maximumControlFlowDepth``.
    private func verifyCallGraph() throws(ModelFileError) {
        let calls = subgraphCalls.map { Array(Set($0)).sorted() }
        // depth[s]: how many subgraphs deep the longest chain below s goes (0 when s runs none); -1 unvisited,
        // -2 on the current path.
        var depth = [Int](repeating: -1, count: calls.count)
        for root in calls.indices where depth[root] == -1 {
            var stack: [(subgraph: Int, next: Int)] = [(root, 0)]
            depth[root] = -2
            while let (subgraph, next) = stack.last {
                guard next < calls[subgraph].count else {
                    let below = calls[subgraph].map { depth[$0] }.max() ?? -1
                    depth[subgraph] = below + 1
                    stack.removeLast()
                    if depth[subgraph] > ModelLimits.maximumControlFlowDepth {
                        throw .malformed(
                            "control-flow operators nest subgraphs \(depth[subgraph]) deep below subgraph "
                                + "\(subgraph) (\(chain(from: subgraph, calls: calls, depth: depth))); LiteVision "
                                + "accepts at most \(ModelLimits.maximumControlFlowDepth) levels, as deeper chains "
                                + "overflow the runtime's stack")
                    }
                    continue
                }
                stack[stack.count - 1].next += 1
                let callee = calls[subgraph][next]
                if depth[callee] == -2 {
                    throw .malformed(
                        "subgraph \(callee) runs itself through control-flow operators (subgraphs "
                            + "\(stack.map(\.subgraph) + [callee])); the runtime cannot prepare a recursive model")
                }
                if depth[callee] == -1 {
                    depth[callee] = -2
                    stack.append((callee, 0))
                }
            }
        }
    }

    /// The first subgraphs of the deepest chain below `subgraph`, for the error message.
    private func chain(from subgraph: Int, calls: [[Int]], depth: [Int]) -> String {
        var path = [subgraph], current = subgraph
        while path.count < 6, let next = calls[current].max(by: { depth[$0] < depth[$1] }) {
            path.append(next)
            current = next
        }
        return "subgraphs " + path.map(String.init).joined(separator: " → ") + (depth[current] > 0 ? " → …" : "")
    }

    /// Refuses a WHILE loop that provably never ends once it starts, where no operator would run (and so no
    /// deadline could be checked) or its condition cannot change.
    private func verifyLoopCanEnd(_ loop: WhileLoop) throws(ModelFileError) {
        let condition = subgraphFlows[loop.condition], body = subgraphFlows[loop.body]
        let what = "the WHILE loop of \(loop.what)"
        guard let result = condition.outputs.first else {
            throw .malformed("\(what) has a condition (subgraph \(loop.condition)) without an output")
        }
        if condition.constantTrueOutputs.first == true {
            throw .malformed(
                "\(what) never ends: its condition (subgraph \(loop.condition)) is the constant true")
        }
        if condition.operatorCount == 0 && body.operatorCount == 0 {
            throw .malformed(
                "\(what) runs no operator: its condition (subgraph \(loop.condition)) and body (subgraph "
                    + "\(loop.body)) are empty, so nothing could stop it between two operators if it never ended")
        }
        // The condition hands on loop variable k unchanged, and the body hands variable k on unchanged too: the
        // condition keeps its first value, so the loop ends at once or never.
        if let position = condition.inputs.firstIndex(of: result), position < body.inputs.count,
            position < body.outputs.count, body.outputs[position] == body.inputs[position]
        {
            throw .malformed(
                "\(what) never ends once it starts: its condition is loop variable \(position), which its body "
                    + "(subgraph \(loop.body)) passes on unchanged")
        }
    }
}
