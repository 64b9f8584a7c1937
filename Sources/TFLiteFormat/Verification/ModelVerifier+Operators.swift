// The operator checks of the model verifier: operator codes and tensor indices, the options unions, the
// options the kernels divide by, and the FlexBuffer options of the runtime's custom operators.

extension ModelVerifier {
    /// Operators whose kernels read their options without checking that they are present and of the right
    /// type (absent options mean strides of 0): builtin code → `BuiltinOptions` type they need.
    static let requiredOptions: [Int32: UInt8] = [
        3: 1,  // CONV_2D: Conv2DOptions
        4: 2,  // DEPTHWISE_CONV_2D: DepthwiseConv2DOptions
        1: 5, 12: 5, 17: 5,  // AVERAGE_POOL_2D, L2_POOL_2D, MAX_POOL_2D: Pool2DOptions
        67: 49,  // TRANSPOSE_CONV: TransposeConvOptions
        132: 106, 141: 106,  // CONV_3D, CONV_3D_TRANSPOSE: Conv3DOptions
    ]

    /// Verifies one operator and returns its input and output tensor indices (inputs may be -1: absent) and its
    /// operator code.
    mutating func verifyOperator(
        _ op: FlatBufferTable,
        tensorCount: Int
    ) throws(ModelFileError) -> (inputs: [Int32], outputs: [Int32], code: VerifiedOperatorCode) {
        try reader.verifyFields(
            op,
            [
                .scalar(width: 4), .vector(elementSize: 4), .vector(elementSize: 4), .scalar(width: 1), .reference,
                .vector(elementSize: 1), .scalar(width: 1), .vector(elementSize: 1), .vector(elementSize: 4),
                .scalar(width: 8), .scalar(width: 8), .scalar(width: 1), .reference, .scalar(width: 4),
            ])
        let codeIndex = Int(try reader.scalar(op, 0, default: UInt32(0)))
        guard codeIndex < operatorCodes.count else {
            throw .malformed("\(op.what) uses operator code \(codeIndex), but the model has \(operatorCodes.count)")
        }
        let code = operatorCodes[codeIndex]
        let inputs = try reader.verifiedInt32s(op, 1, "the inputs of \(op.what)")
        let outputs = try reader.verifiedInt32s(op, 2, "the outputs of \(op.what)")
        let intermediates = try reader.verifiedInt32s(op, 8, "the intermediates of \(op.what)")
        guard inputs.count <= ModelLimits.maximumOperatorTensors, outputs.count <= ModelLimits.maximumOperatorTensors
        else {
            throw .malformed("\(op.what) has \(inputs.count) inputs and \(outputs.count) outputs")
        }
        for (role, indices, optional) in [
            ("input", inputs, true), ("output", outputs, false), ("intermediate", intermediates, true),
        ] {
            for index in indices where !(index >= 0 && Int(index) < tensorCount || optional && index == -1) {
                throw .malformed("an \(role) of \(op.what) is tensor \(index), but the subgraph has \(tensorCount)")
            }
        }
        let optionsType = try reader.scalar(op, 3, default: UInt8(0))
        try verifyOptions(op, typeField: 3, valueField: 4, layouts: OptionTableLayout.builtinOptions)
        try verifyOptions(op, typeField: 11, valueField: 12, layouts: OptionTableLayout.builtinOptions2)
        let hasOptions = try reader.fieldPosition(op, 4, width: 4) != nil
        if let required = Self.requiredOptions[code.builtinCode], optionsType != required || !hasOptions {
            let name = OptionTableLayout.builtinOptions[Int(required) - 1]?.name ?? "\(required)"
            throw .malformed("\(op.what) (builtin operator \(code.builtinCode)) has no \(name)")
        }
        try verifyCustomOptions(op, code: code)
        return (inputs, outputs, code)
    }

    /// Checks the options union stored in `typeField`/`valueField` of `op` against the table layouts of its
    /// union, including the values the runtime trusts.
    private mutating func verifyOptions(
        _ op: FlatBufferTable, typeField: Int, valueField: Int,
        layouts: [OptionTableLayout?]
    ) throws(ModelFileError) {
        let type = Int(try reader.scalar(op, typeField, default: UInt8(0)))
        guard type != 0, let position = try reader.fieldPosition(op, valueField, width: 4) else { return }
        guard type <= layouts.count, let layout = layouts[type - 1] else {
            throw .malformed("\(op.what) has options of type \(type), which the TFLite schema does not define")
        }
        let options = try reader.verifiedTable(
            at: try reader.followOffset(at: position, "the options of \(op.what)"), "the \(layout.name) of \(op.what)")
        try reader.verifyFields(options, layout.fields)
        for (id, kind) in layout.fields.enumerated() {
            switch kind {
            case .subgraphIndex:
                let index = try reader.scalar(options, id, default: UInt32(0))
                guard Int(index) < subgraphCount else {
                    throw .malformed("\(options.what) names subgraph \(index), but the model has \(subgraphCount)")
                }
                subgraphCalls[currentSubgraph].append(Int(index))
            case .subgraphIndices:
                for index in try reader.verifiedInt32s(options, id, "the subgraphs of \(options.what)") {
                    guard index >= 0, Int(index) < subgraphCount else {
                        throw .malformed(
                            "\(options.what) names subgraph \(index), but the model has \(subgraphCount)")
                    }
                    subgraphCalls[currentSubgraph].append(Int(index))
                }
            case .activation:
                let value = try reader.scalar(options, id, default: UInt8(0))
                guard value <= 5 else {
                    throw .malformed("\(options.what) has activation function \(value), which does not exist")
                }
            case .padding:
                let value = try reader.scalar(options, id, default: UInt8(0))
                guard value <= 1 else { throw .malformed("\(options.what) has padding \(value), which does not exist") }
            case .positive(let defaultValue):
                let value = try reader.scalar(options, id, default: defaultValue)
                guard value >= 1 else {
                    throw .malformed("\(options.what) has a stride, filter size or dilation of \(value)")
                }
            case .scalar, .string, .vector, .reference, .deprecated:
                break
            }
        }
        if layout.name == "WhileOptions" || layout.name == "StablehloWhileOptions" {
            whileLoops.append(
                WhileLoop(
                    subgraph: currentSubgraph, what: op.what,
                    condition: Int(try reader.scalar(options, 0, default: UInt32(0))),
                    body: Int(try reader.scalar(options, 1, default: UInt32(0)))))
        }
    }

    /// The custom options of `op`: stored outside the FlatBuffer within the file, and a valid FlexBuffer for the
    /// runtime's own custom operators, which read them unchecked.
    private mutating func verifyCustomOptions(_ op: FlatBufferTable, code: VerifiedOperatorCode) throws(ModelFileError)
    {
        let what = "the custom options of \(op.what)"
        var options = try reader.byteRange(op, 5, what) ?? 0..<0
        if let outside = try reader.outsideData(op, offsetField: 9, sizeField: 10, what) { options = outside }
        guard let name = code.customName, Self.flexBufferOperators.contains(name) else { return }
        guard try reader.scalar(op, 6, default: Int8(0)) == 0 else {
            throw .malformed("the custom options of \(op.what) (\(name)) are not a FlexBuffer")
        }
        let settings: [String: Int64]
        if let known = verifiedFlexBuffers[options] {
            settings = known
        } else {
            try reader.charge(options.count, "the custom options of \(op.what)")
            var verifier = FlexBufferVerifier(bytes: reader.bytes, range: options, what: "\(op.what) (\(name))")
            try verifier.verify()
            settings = verifier.rootIntegers
            verifiedFlexBuffers[options] = settings
        }
        // Checked for every operator, also when its options are shared with another (already verified) one.
        if name == "TFLite_Detection_PostProcess" {
            try checkDetectionSettings(settings, "\(op.what) (\(name))")
        }
    }

    /// The settings the detection post-processing kernel sizes its outputs and loops from, unchecked: detection
    /// and class counts in ranges no real detector leaves (a flipped bit would ask for gigabytes).
    private func checkDetectionSettings(_ settings: [String: Int64], _ what: String) throws(ModelFileError) {
        let limits: [(key: String, range: ClosedRange<Int64>, required: Bool)] = [
            ("max_detections", 1...10_000, true), ("max_classes_per_detection", 1...10_000, true),
            ("num_classes", 1...100_000, true), ("detections_per_class", 1...10_000, false),
        ]
        for (key, range, required) in limits {
            guard let value = settings[key] else {
                if required { throw .malformed("the options of \(what) have no \(key)") }
                continue
            }
            guard range.contains(value) else {
                throw .malformed(
                    "the options of \(what) set \(key) to \(value), outside \(range.lowerBound)–\(range.upperBound)")
            }
        }
    }
}
