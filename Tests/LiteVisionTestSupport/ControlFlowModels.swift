import Foundation

/// Small runnable classifiers with control flow, written by the tests (``FBWriter``): models a publisher could
/// craft to hang or crash every client, and a well-behaved loop beside them.
///
/// Each is a classifier as LiteVision accepts it: a uint8 `[1, 2, 2, 3]` image in, two uint8 scores out (with
/// the labels ``labels``). The scores come out of a `WHILE` loop that carries them unchanged next to an int32
/// counter: the condition (subgraph 1) is `counter < 5`, the body (subgraph 2) `counter + step`.
public enum ControlFlowModels {
    /// What the loop does.
    public enum Loop: Sendable {
        /// Counts to 5 by 1 and ends: a model every check must accept.
        case counting
        /// Adds 0 to the counter: it never reaches 5, which nothing in the file proves (only running it shows).
        case stuck
        /// The condition is the constant `true` (and runs no operator): provably endless.
        case constantTrue
        /// The body hands the condition's loop variable on unchanged: provably endless once it starts.
        case unchangedCondition
    }

    /// The labels of the two scores.
    public static let labels = "first\nsecond\n"

    /// The scores every run gives: 200/256 and 50/256.
    public static let scores: [UInt8] = [200, 50]

    /// A classifier whose scores come through `loop`, and whose main subgraph first runs a chain of `chain`
    /// subgraphs, each calling the next through `CALL_ONCE` (0: none).
    public static func classifier(loop: Loop = .counting, chain: Int = 0) -> [UInt8] {
        // Operator codes: ADD, LESS, WHILE, CALL_ONCE (past 127: the byte field holds 127, the int the code).
        let codes: FBNode = .tables([
            .table([0: .i8(0), 3: .i32(0)]), .table([0: .i8(58), 3: .i32(58)]), .table([0: .i8(119), 3: .i32(119)]),
            .table([0: .i8(127), 3: .i32(129)]),
        ])
        // Buffers: 0 empty (as converters write), 1 counter start 0, 2 the scores, 3 limit 5, 4 step, 5 true.
        let step: Int32 = loop == .stuck ? 0 : 1
        let buffers: FBNode = .tables([
            .table([:]), .table([0: .node(.bytes(le(Int32(0))))]), .table([0: .node(.bytes(scores))]),
            .table([0: .node(.bytes(le(Int32(5))))]), .table([0: .node(.bytes(le(step)))]),
            .table([0: .node(.bytes([1]))]),
        ])
        let scoreQuantization: FBValue = .node(.table([2: .node(.floats([1.0 / 256])), 3: .node(.int64s([0]))]))
        func tensor(
            _ name: String, _ shape: [Int32], type: Int8, buffer: UInt32 = 0, quantized: Bool = false
        )
            -> FBNode
        {
            var fields: [Int: FBValue] = [
                0: .node(.int32s(shape)), 1: .i8(type), 2: .u32(buffer), 3: .node(.string(name)),
            ]
            if quantized { fields[4] = scoreQuantization }
            return .table(fields)
        }
        func op(_ code: UInt32, _ inputs: [Int32], _ outputs: [Int32], options: (UInt8, FBNode)? = nil) -> FBNode {
            var fields: [Int: FBValue] = [0: .u32(code), 1: .node(.int32s(inputs)), 2: .node(.int32s(outputs))]
            if let (type, table) = options {
                fields[3] = .u8(type)
                fields[4] = .node(table)
            }
            return .table(fields)
        }
        func subgraph(_ name: String, tensors: [FBNode], inputs: [Int32], outputs: [Int32], ops: [FBNode]) -> FBNode {
            .table([
                0: .node(.tables(tensors)), 1: .node(.int32s(inputs)), 2: .node(.int32s(outputs)),
                3: .node(.tables(ops)), 4: .node(.string(name)),
            ])
        }
        let (uint8, int32, bool): (Int8, Int8, Int8) = (3, 2, 6)
        let first = 3  // the first subgraph of the CALL_ONCE chain
        var mainOps = [op(2, [2, 4], [3, 1], options: (93, .table([0: .i32(1), 1: .i32(2)])))]
        if chain > 0 { mainOps.insert(op(3, [], [], options: (103, .table([0: .i32(Int32(first))]))), at: 0) }
        let main = subgraph(
            "main",
            tensors: [
                tensor("image", [1, 2, 2, 3], type: uint8), tensor("scores", [1, 2], type: uint8, quantized: true),
                tensor("counter_start", [], type: int32, buffer: 1),
                tensor("counter_end", [], type: int32),
                tensor("scores_start", [1, 2], type: uint8, buffer: 2, quantized: true),
            ],
            inputs: [0], outputs: [1], ops: mainOps)
        let condition: FBNode
        switch loop {
        case .constantTrue:
            condition = subgraph(
                "condition",
                tensors: [
                    tensor("counter", [], type: int32), tensor("scores", [1, 2], type: uint8, quantized: true),
                    tensor("always", [], type: bool, buffer: 5),
                ],
                inputs: [0, 1], outputs: [2], ops: [])
        case .counting, .stuck, .unchangedCondition:
            condition = subgraph(
                "condition",
                tensors: [
                    tensor("counter", [], type: int32), tensor("scores", [1, 2], type: uint8, quantized: true),
                    tensor("limit", [], type: int32, buffer: 3), tensor("going", [], type: bool),
                ],
                inputs: [0, 1], outputs: [3], ops: [op(1, [0, 2], [3])])
        }
        var body = subgraph(
            "body",
            tensors: [
                tensor("counter", [], type: int32), tensor("scores", [1, 2], type: uint8, quantized: true),
                tensor("step", [], type: int32, buffer: 4), tensor("next", [], type: int32),
            ],
            inputs: [0, 1], outputs: [3, 1], ops: [op(0, [0, 2], [3])])
        if loop == .unchangedCondition {
            // The condition becomes a bool loop variable handed on as it is; the counter still counts.
            body = subgraph(
                "body",
                tensors: [
                    tensor("going", [], type: bool), tensor("counter", [], type: int32),
                    tensor("step", [], type: int32, buffer: 4), tensor("next", [], type: int32),
                ],
                inputs: [0, 1], outputs: [0, 3], ops: [op(0, [1, 2], [3])])
            return model(
                codes: codes, buffers: buffers,
                subgraphs: [
                    subgraph(
                        "main",
                        tensors: [
                            tensor("image", [1, 2, 2, 3], type: uint8),
                            tensor("scores", [1, 2], type: uint8, buffer: 2, quantized: true),
                            tensor("going_start", [], type: bool, buffer: 5),
                            tensor("counter_start", [], type: int32, buffer: 1),
                            tensor("going_end", [], type: bool), tensor("counter_end", [], type: int32),
                        ],
                        inputs: [0], outputs: [1],
                        ops: [op(2, [2, 3], [4, 5], options: (93, .table([0: .i32(1), 1: .i32(2)])))]),
                    subgraph(
                        "condition",
                        tensors: [tensor("going", [], type: bool), tensor("counter", [], type: int32)],
                        inputs: [0, 1], outputs: [0], ops: []),
                    body,
                ])
        }
        var subgraphs = [main, condition, body]
        for index in 0..<chain {
            let callee = Int32(first + index + 1)
            subgraphs.append(
                subgraph(
                    "chain \(index)", tensors: [], inputs: [], outputs: [],
                    ops: index + 1 < chain ? [op(3, [], [], options: (103, .table([0: .i32(callee)])))] : []))
        }
        return model(codes: codes, buffers: buffers, subgraphs: subgraphs)
    }

    private static func model(codes: FBNode, buffers: FBNode, subgraphs: [FBNode]) -> [UInt8] {
        FBWriter.buffer(
            root: .table([
                0: .u32(3), 1: .node(codes), 2: .node(.tables(subgraphs)), 3: .node(.string("LiteVision tests")),
                4: .node(buffers),
            ]), identifier: "TFL3")
    }

    /// Writes `bytes` (a model of ``classifier(loop:chain:)``) and its ``labels`` into a new temporary folder;
    /// returns the folder (for the caller to delete) and the model's and the labels' paths.
    public static func write(_ bytes: [UInt8], name: String) throws -> (folder: URL, model: String, labels: String) {
        let folder = TestData.temporaryDirectory("control-flow")
        let model = folder.appendingPathComponent("\(name).tflite").path
        let labels = folder.appendingPathComponent("labels.txt").path
        try Data(bytes).write(to: URL(fileURLWithPath: model))
        try Data(Self.labels.utf8).write(to: URL(fileURLWithPath: labels))
        return (folder, model, labels)
    }
}
