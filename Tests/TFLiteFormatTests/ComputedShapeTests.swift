import LiteVisionTestSupport
import Testing

@testable import TFLiteFormat

/// Small graphs written by the tests, for what the runtime computes while it prepares a model: output shapes
/// taken from constant inputs, and the subgraphs control-flow operators run.
enum GraphFixture {
    /// A tensor table: float32 unless `type` says otherwise; `buffer` 0 is the empty buffer.
    static func tensor(_ shape: [Int32], type: Int8 = 0, buffer: UInt32 = 0) -> FBNode {
        .table([0: .node(.int32s(shape)), 1: .i8(type), 2: .u32(buffer)])
    }

    /// An operator using operator code `code`, with builtin options of union type `optionsType`.
    static func op(
        _ code: UInt32, inputs: [Int32], outputs: [Int32], optionsType: UInt8 = 0, options: [Int: FBValue] = [:]
    ) -> FBNode {
        var fields: [Int: FBValue] = [0: .u32(code), 1: .node(.int32s(inputs)), 2: .node(.int32s(outputs))]
        if optionsType != 0 {
            fields[3] = .u8(optionsType)
            fields[4] = .node(.table(options))
        }
        return .table(fields)
    }

    /// A model of the builtin operators `codes` (operator code i is `codes[i]`), the constant buffers `buffers`
    /// (buffer 0, the empty one, comes first on its own), and the subgraphs.
    static func model(
        codes: [Int32], buffers: [[UInt8]],
        subgraphs: [(tensors: [FBNode], inputs: [Int32], outputs: [Int32], operators: [FBNode])]
    ) -> [UInt8] {
        let root: FBNode = .table([
            0: .u32(3),
            1: .node(.tables(codes.map { .table([0: .i8(Int8(min($0, 127))), 3: .i32($0)]) })),
            2: .node(
                .tables(
                    subgraphs.map {
                        .table([
                            0: .node(.tables($0.tensors)), 1: .node(.int32s($0.inputs)),
                            2: .node(.int32s($0.outputs)), 3: .node(.tables($0.operators)),
                        ])
                    })),
            4: .node(.tables([.table([:])] + buffers.map { .table([0: .node(.bytes($0))]) })),
        ])
        return FBWriter.buffer(root: root, identifier: "TFL3")
    }

    /// A model with one operator of builtin code `code` whose inputs are a float input (tensor 0, shaped
    /// `inputShape`) and constant int32 tensors (`constants`, in order after it); its output is tensor last.
    static func oneOperator(
        code: Int32, inputShape: [Int32]?, constants: [[Int32]], constantType: Int8 = 2
    ) -> [UInt8] {
        var tensors: [FBNode] = []
        var inputs: [Int32] = []
        var subgraphInputs: [Int32] = []
        if let inputShape {
            tensors.append(tensor(inputShape))
            inputs.append(0)
            subgraphInputs.append(0)
        }
        var buffers: [[UInt8]] = []
        for values in constants {
            buffers.append(
                constantType == 4 ? values.flatMap { le(Int64($0)) } : values.flatMap { le(UInt32(bitPattern: $0)) })
            inputs.append(Int32(tensors.count))
            tensors.append(tensor([Int32(values.count)], type: constantType, buffer: UInt32(buffers.count)))
        }
        let output = Int32(tensors.count)
        tensors.append(tensor([1]))
        if subgraphInputs.isEmpty {
            // A subgraph needs an input; give it one no operator reads.
            subgraphInputs.append(Int32(tensors.count))
            tensors.append(tensor([1]))
        }
        return model(
            codes: [code], buffers: buffers,
            subgraphs: [(tensors, subgraphInputs, [output], [op(0, inputs: inputs, outputs: [output])])])
    }
}

@Suite("What the runtime computes while preparing a model")
struct ComputedShapeTests {
    func error(_ bytes: [UInt8]) -> String? {
        do {
            _ = try TFLiteModelFile(bytes: bytes)
            return nil
        } catch {
            return error.description
        }
    }

    @Test func fillDimensionsFromAConstant() throws {
        // FILL(dims, value): dims and value are constants, the output is resized to dims by the runtime.
        func fill(_ dims: [Int32], type: Int8 = 2) -> [UInt8] {
            GraphFixture.oneOperator(code: 94, inputShape: nil, constants: [dims, [0]], constantType: type)
        }
        #expect(error(fill([4, 4])) == nil)
        #expect(error(fill([4, 4], type: 4)) == nil)
        let huge = error(fill([65536, 65536, 16]))
        #expect(huge?.contains("computes an output shaped [65536, 65536, 16]") == true, "\(huge ?? "accepted")")
        #expect(error(fill([65536, 65536, 16], type: 4))?.contains("computes an output shaped") == true)
        #expect(error(fill([-1, 4]))?.contains("computes an output shaped [-1, 4]") == true)
        // More values than any shape holds: refused, not left unchecked.
        #expect(
            error(fill([Int32](repeating: 2, count: 70)))?.contains("more than a shape of 16 dimensions holds")
                == true)
    }

    @Test func tileResizePadAndOneHot() throws {
        // TILE(input [2, 3], multiples): 2·3 × multiples.
        #expect(error(GraphFixture.oneOperator(code: 69, inputShape: [2, 3], constants: [[10, 10]])) == nil)
        #expect(
            error(GraphFixture.oneOperator(code: 69, inputShape: [2, 3], constants: [[100_000, 100_000]]))?
                .contains("shaped [200000, 300000]") == true)
        // RESIZE_BILINEAR(input [1, 8, 8, 3], size [h, w]).
        #expect(error(GraphFixture.oneOperator(code: 23, inputShape: [1, 8, 8, 3], constants: [[224, 224]])) == nil)
        #expect(
            error(GraphFixture.oneOperator(code: 97, inputShape: [1, 8, 8, 3], constants: [[60_000, 60_000]]))?
                .contains("shaped [1, 60000, 60000, 3]") == true)
        // PAD(input [1, 4], paddings [[0, 0], [before, after]]).
        #expect(error(GraphFixture.oneOperator(code: 34, inputShape: [1, 4], constants: [[0, 0, 2, 2]])) == nil)
        #expect(
            error(GraphFixture.oneOperator(code: 60, inputShape: [1, 4], constants: [[0, 0, 0, 1 << 30]]))?
                .contains("shaped [1, 1073741828]") == true)
        // ONE_HOT(indices [1000], depth).
        #expect(error(GraphFixture.oneOperator(code: 85, inputShape: [1000], constants: [[10]])) == nil)
        #expect(
            error(GraphFixture.oneOperator(code: 85, inputShape: [1000], constants: [[1 << 20]]))?
                .contains("shaped [1000, 1048576]") == true)
    }

    @Test func aSubgraphThatRunsItselfIsRefused() throws {
        // Subgraph 0 runs a WHILE (code 119, WhileOptions = 93: cond, body) whose condition is subgraph 1 and body
        // subgraph 3 (an ADD, so that the loop can end); subgraph 1 runs subgraph `callee` through CALL_ONCE (code
        // 129, CallOnceOptions = 103).
        func model(callee: UInt32) -> [UInt8] {
            let loop = GraphFixture.op(
                0, inputs: [0], outputs: [1], optionsType: 93, options: [0: .u32(1), 1: .u32(3)])
            let once = GraphFixture.op(1, inputs: [], outputs: [], optionsType: 103, options: [0: .u32(callee)])
            let add = GraphFixture.op(2, inputs: [0, 0], outputs: [1])
            let pair = [GraphFixture.tensor([1]), GraphFixture.tensor([1])]
            return GraphFixture.model(
                codes: [119, 129, 0], buffers: [],
                subgraphs: [
                    (pair, [0], [1], [loop]), (pair, [0], [0], [once]), (pair, [0], [0], []), (pair, [0], [1], [add]),
                ])
        }
        #expect(error(model(callee: 2)) == nil)
        let direct = error(model(callee: 1))
        #expect(direct?.contains("subgraph 1 runs itself") == true, "\(direct ?? "accepted")")
        #expect(direct?.contains("[0, 1, 1]") == true)
        #expect(error(model(callee: 0))?.contains("subgraph 0 runs itself") == true)
    }
}
