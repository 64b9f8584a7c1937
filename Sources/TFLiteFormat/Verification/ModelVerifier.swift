// Verifies a whole TFLite model before the runtime sees it. The runtime reads the FlatBuffer without checking
// it (a flipped bit in a tensor or operator table crashes it), so everything it trusts is checked here: the
// FlatBuffers verifier's rules for every table, vector and string of the schema, and the invariants the runtime
// assumes (indices in range, constant data as large as its tensor, operators reading tensors that exist and
// are produced before they are read, sizes it divides by not zero). Field numbers are those of schema.fbs.

/// What the verifier keeps of one tensor to check the operators that use it.
struct VerifiedTensor {
    /// Whether the tensor has constant data (a non-empty buffer).
    var isConstant: Bool
    /// Whether the tensor is a variable (state kept between runs, readable before any operator writes it).
    var isVariable: Bool
    /// The declared shape.
    var shape: [Int32]
    /// The element type (`TensorType` in schema.fbs).
    var type: Int
    /// Where its constant data lies in the file (empty when it has none).
    var data: Range<Int>
    /// The bytes its shape and type need (0 for strings, resources and variants).
    var byteCount: Int
}

/// What the verifier keeps of one operator code.
struct VerifiedOperatorCode {
    /// The builtin operator (the larger of the two code fields, as the runtime reads it).
    var builtinCode: Int32
    /// The custom operator's name, for `CUSTOM` (32).
    var customName: String?
}

/// Walks every table of a model FlatBuffer and throws the first violation it finds.
struct ModelVerifier {
    var reader: FlatBufferReader
    /// Where the data of each of the model's buffers lies in the file, indexed like the buffers table.
    var bufferRanges: [Range<Int>] = []
    /// The model's operator codes, indexed like its operator-codes table.
    var operatorCodes: [VerifiedOperatorCode] = []
    /// The number of subgraphs (control-flow options must name one of them).
    var subgraphCount = 0
    /// The custom-option FlexBuffers already verified (operators may share one), with their root integers.
    var verifiedFlexBuffers: [Range<Int>: [String: Int64]] = [:]
    /// The subgraph being verified.
    var currentSubgraph = 0
    /// The subgraphs each subgraph runs through control-flow operators (WHILE, IF, CALL_ONCE…).
    var subgraphCalls: [[Int]] = []
    /// What the control-flow checks need of each subgraph verified so far.
    var subgraphFlows: [SubgraphFlow] = []
    /// The WHILE loops of the subgraphs verified so far.
    var whileLoops: [WhileLoop] = []
    /// The bytes of the tensors without constant data in the subgraphs verified so far: what the runtime may
    /// allocate for them (see ``ModelLimits/maximumTotalTensorBytes``).
    var runtimeTensorBytes = 0

    init(reader: FlatBufferReader) {
        self.reader = reader
    }

    /// Custom operators of the runtime whose options are a FlexBuffer it reads without checking.
    static let flexBufferOperators: Set<String> = ["TFLite_Detection_PostProcess", "Mfcc", "AudioSpectrogram"]

    /// Verifies the whole model; throws the first violation found.
    mutating func verify() throws(ModelFileError) {
        let model = try reader.verifiedTable(
            at: try reader.followOffset(at: reader.start, "the Model table"), "the Model table")
        try reader.verifyFields(
            model,
            [
                .scalar(width: 4), .reference, .reference, .string, .reference, .vector(elementSize: 4), .reference,
                .reference, .reference, .reference,
            ])
        let version = try reader.scalar(model, 0, default: UInt32(0))
        guard version == 3 else {
            throw .malformed("the model is written in TFLite schema version \(version); the runtime reads version 3")
        }
        let groups = try reader.vector(model, 8, elementSize: 4, "the external buffer groups")?.count ?? 0
        let externalBuffers = try reader.vector(model, 9, elementSize: 4, "the external buffers")?.count ?? 0
        if groups > 0 || externalBuffers > 0 {
            throw .malformed("the model keeps weights in external files, which LiteVision does not load")
        }
        try verifyBuffers(model)
        try verifyOperatorCodes(model)
        if let count = try reader.vector(model, 2, elementSize: 4, "the subgraphs")?.count,
            count > ModelLimits.maximumSubgraphs
        {
            throw .malformed(
                "the model has \(count) subgraphs; LiteVision accepts at most \(ModelLimits.maximumSubgraphs)")
        }
        let subgraphs = try reader.verifiedTables(model, 2, "the subgraphs") { "subgraph \($0)" }
        guard !subgraphs.isEmpty else { throw .malformed("the model has no subgraph") }
        subgraphCount = subgraphs.count
        subgraphCalls = Array(repeating: [], count: subgraphs.count)
        subgraphFlows.reserveCapacity(subgraphs.count)
        var tensorCounts: [Int] = []
        for (index, subgraph) in subgraphs.enumerated() {
            currentSubgraph = index
            tensorCounts.append(try verifySubgraph(subgraph))
        }
        try verifyControlFlow()
        try verifyMetadataEntries(model)
        try verifySignatures(model, tensorCounts: tensorCounts)
    }

    // MARK: Buffers and operator codes

    private mutating func verifyBuffers(_ model: FlatBufferTable) throws(ModelFileError) {
        let buffers = try reader.verifiedTables(model, 4, "the buffers") { "buffer \($0)" }
        bufferRanges.reserveCapacity(buffers.count)
        for buffer in buffers {
            try reader.verifyFields(buffer, [.vector(elementSize: 1), .scalar(width: 8), .scalar(width: 8)])
            let what = "the data of \(buffer.what)"
            var data = try reader.byteRange(buffer, 0, what) ?? 0..<0
            if let outside = try reader.outsideData(buffer, offsetField: 1, sizeField: 2, what) { data = outside }
            bufferRanges.append(data)
        }
    }

    private mutating func verifyOperatorCodes(_ model: FlatBufferTable) throws(ModelFileError) {
        let codes = try reader.verifiedTables(model, 1, "the operator codes") { "operator code \($0)" }
        for code in codes {
            try reader.verifyFields(code, [.scalar(width: 1), .string, .scalar(width: 4), .scalar(width: 4)])
            let deprecated = Int32(try reader.scalar(code, 0, default: Int8(0)))
            let builtin = try reader.scalar(code, 3, default: Int32(0))
            let effective = max(deprecated, builtin)
            guard deprecated >= 0, builtin >= 0 else {
                throw .malformed(
                    "\(code.what) names builtin operator \(min(deprecated, builtin)), which does not exist")
            }
            var customName: String?
            if effective == 32 {
                // The runtime looks the operator up by the name as a C string: up to its first zero byte.
                customName = try reader.string(code, 1, "the custom name of \(code.what)")?
                    .split(separator: "\0", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init)
            }
            operatorCodes.append(VerifiedOperatorCode(builtinCode: effective, customName: customName))
        }
    }

    // MARK: Subgraphs

    /// Verifies one subgraph and returns its tensor count.
    private mutating func verifySubgraph(_ subgraph: FlatBufferTable) throws(ModelFileError) -> Int {
        try reader.verifyFields(
            subgraph,
            [.reference, .vector(elementSize: 4), .vector(elementSize: 4), .reference, .string, .scalar(width: 4)])
        let tensors = try verifyTensors(of: subgraph)
        let inputs = try reader.verifiedInt32s(subgraph, 1, "the inputs of \(subgraph.what)")
        let outputs = try reader.verifiedInt32s(subgraph, 2, "the outputs of \(subgraph.what)")
        for (role, indices) in [("input", inputs), ("output", outputs)] {
            for (position, index) in indices.enumerated() where index < 0 || Int(index) >= tensors.count {
                throw .malformed(
                    "\(role) \(position) of \(subgraph.what) refers to tensor \(index), but the subgraph has "
                        + "\(tensors.count) tensors")
            }
        }
        let operators = try reader.verifiedTables(subgraph, 3, "the operators of \(subgraph.what)") {
            "operator \($0) of \(subgraph.what)"
        }
        let readable = try verifyDataflow(operators, inputs: inputs, tensors: tensors)
        for index in outputs where !readable[Int(index)] {
            throw .malformed("\(subgraph.what) outputs tensor \(index), which no operator writes")
        }
        subgraphFlows.append(
            SubgraphFlow(
                operatorCount: operators.count, inputs: inputs, outputs: outputs,
                constantTrueOutputs: outputs.map { index in
                    let tensor = tensors[Int(index)]
                    return tensor.isConstant && !tensor.data.isEmpty && reader.bytes[tensor.data.lowerBound] != 0
                }))
        return tensors.count
    }

    /// Verifies the tensors of `subgraph`, adding those without constant data to the model's runtime bytes, which
    /// must stay within ``ModelLimits/maximumTotalTensorBytes``.
    private mutating func verifyTensors(of subgraph: FlatBufferTable) throws(ModelFileError) -> [VerifiedTensor] {
        let tensorTables = try reader.verifiedTables(subgraph, 0, "the tensors of \(subgraph.what)") {
            "tensor \($0) of \(subgraph.what)"
        }
        var tensors: [VerifiedTensor] = []
        tensors.reserveCapacity(tensorTables.count)
        for tensor in tensorTables {
            let verified = try verifyTensor(tensor, tensorCount: tensorTables.count)
            tensors.append(verified)
            // Each tensor is at most 256 MiB, so the sum cannot overflow before it passes the limit.
            if !verified.isConstant { runtimeTensorBytes += verified.byteCount }
            guard runtimeTensorBytes <= ModelLimits.maximumTotalTensorBytes else {
                throw .malformed(
                    "the model's tensors without constant data need more than the "
                        + "\(ModelLimits.maximumTotalTensorBytes)-byte limit in all (\(runtimeTensorBytes) bytes up to "
                        + "\(tensor.what))")
            }
        }
        return tensors
    }

    /// Verifies `operators` in order, and that each reads only tensors that are readable by then (a subgraph
    /// input, constant, a variable, or written by an earlier operator) and writes none that is a constant, a
    /// variable, an input or already written. Returns which tensors are readable after the last operator.
    private mutating func verifyDataflow(
        _ operators: [FlatBufferTable], inputs: [Int32], tensors: [VerifiedTensor]
    ) throws(ModelFileError) -> [Bool] {
        var readable = tensors.map { $0.isConstant || $0.isVariable }
        var written = [Bool](repeating: false, count: tensors.count)
        var isInput = [Bool](repeating: false, count: tensors.count)
        for index in inputs {
            readable[Int(index)] = true
            isInput[Int(index)] = true
        }
        for op in operators {
            let (opInputs, opOutputs, code) = try verifyOperator(op, tensorCount: tensors.count)
            try verifyComputedOutputSize(op, code: code, inputs: opInputs, outputs: opOutputs, tensors: tensors)
            for index in opInputs where index >= 0 && !readable[Int(index)] {
                throw .malformed("\(op.what) reads tensor \(index) before any operator writes it")
            }
            for index in opOutputs {
                let tensor = Int(index)
                guard !written[tensor], !tensors[tensor].isConstant, !tensors[tensor].isVariable,
                    !isInput[tensor]
                else {
                    throw .malformed(
                        "\(op.what) writes tensor \(index), which is constant, a variable, an input of the subgraph, "
                            + "or written by another operator")
                }
                written[tensor] = true
                readable[tensor] = true
            }
        }
        return readable
    }

    // MARK: Metadata entries and signatures

    private mutating func verifyMetadataEntries(_ model: FlatBufferTable) throws(ModelFileError) {
        for index in try reader.verifiedInt32s(model, 5, "the metadata buffer list")
        where index < 0 || Int(index) >= bufferRanges.count {
            throw .malformed("the metadata buffer list names buffer \(index), but the model has \(bufferRanges.count)")
        }
        let entries = try reader.verifiedTables(model, 6, "the metadata entries") { "metadata entry \($0)" }
        for entry in entries {
            try reader.verifyFields(entry, [.string, .scalar(width: 4)])
            let buffer = try reader.scalar(entry, 1, default: UInt32(0))
            guard Int(buffer) < bufferRanges.count else {
                throw .malformed("\(entry.what) refers to buffer \(buffer), but the model has \(bufferRanges.count)")
            }
        }
    }

    private mutating func verifySignatures(_ model: FlatBufferTable, tensorCounts: [Int]) throws(ModelFileError) {
        let signatures = try reader.verifiedTables(model, 7, "the signatures") { "signature \($0)" }
        for signature in signatures {
            try reader.verifyFields(signature, [.reference, .reference, .string, .deprecated, .scalar(width: 4)])
            let subgraph = Int(try reader.scalar(signature, 4, default: UInt32(0)))
            guard subgraph < tensorCounts.count else {
                throw .malformed("\(signature.what) runs subgraph \(subgraph), but the model has \(tensorCounts.count)")
            }
            for (field, role) in [(0, "input"), (1, "output")] {
                let maps = try reader.verifiedTables(signature, field, "the \(role)s of \(signature.what)") {
                    "\(role) \($0) of \(signature.what)"
                }
                for map in maps {
                    try reader.verifyFields(map, [.string, .scalar(width: 4)])
                    let tensor = try reader.scalar(map, 1, default: UInt32(0))
                    guard Int(tensor) < tensorCounts[subgraph] else {
                        throw .malformed(
                            "\(map.what) names tensor \(tensor), but subgraph \(subgraph) has \(tensorCounts[subgraph])"
                        )
                    }
                }
            }
        }
    }
}
