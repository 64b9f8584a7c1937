// The sizes the runtime computes while it prepares a model: operators whose output shape comes from the values
// of a constant stored in the file (FILL's dimensions, TILE's multiples, a resize's target size…) and the declared
// shape of their data input. The declared output shape does not matter for them (the runtime resizes the output),
// so a flipped bit in the constant would make it allocate and fill gigabytes. Not bounded here: shapes computed
// by an operator between the constant and its user, chains whose intermediate shapes differ from the declared
// ones, broadcasting, and values known only when the model runs; the runtime checks those sizes for overflow.

extension ModelVerifier {
    /// Checks that the output an operator's constant inputs ask for stays within the tensor size limit.
    func verifyComputedOutputSize(
        _ op: FlatBufferTable, code: VerifiedOperatorCode, inputs: [Int32], outputs: [Int32],
        tensors: [VerifiedTensor]
    ) throws(ModelFileError) {
        guard let output = outputs.first else { return }
        func constant(_ position: Int) throws(ModelFileError) -> [Int64]? {
            guard position < inputs.count, inputs[position] >= 0 else { return nil }
            let tensor = tensors[Int(inputs[position])]
            if let values = constantIntegers(tensor) { return values }
            // A shape of more values than any valid one (16 dimensions, or 16 pairs of paddings) is refused
            // rather than left unchecked.
            if tensor.isConstant, tensor.type == 2 || tensor.type == 4 {
                throw .malformed(
                    "\(op.what) (builtin operator \(code.builtinCode)) takes its output shape from a constant of "
                        + "\(tensor.data.count) bytes, more than a shape of \(ModelLimits.maximumRank) dimensions holds"
                )
            }
            return nil
        }
        func shape(_ position: Int) -> [Int64]? {
            guard position < inputs.count, inputs[position] >= 0 else { return nil }
            return tensors[Int(inputs[position])].shape.map(Int64.init)
        }
        let dimensions: [Int64]?
        switch code.builtinCode {
        case 94, 130:  // FILL (dims, value), BROADCAST_TO (input, shape)
            dimensions = try constant(code.builtinCode == 94 ? 0 : 1)
        case 67:  // TRANSPOSE_CONV (output_shape, weights, input)
            dimensions = try constant(0)
        case 68:  // SPARSE_TO_DENSE (indices, output_shape, values, default)
            dimensions = try constant(1)
        case 122:  // SCATTER_ND (indices, updates, shape)
            dimensions = try constant(2)
        case 69:  // TILE (input, multiples)
            guard let input = shape(0), let multiples = try constant(1), multiples.count == input.count else { return }
            dimensions = zip(input, multiples).map { $0 &* $1 }
        case 23, 97:  // RESIZE_BILINEAR, RESIZE_NEAREST_NEIGHBOR (input NHWC, size [height, width])
            guard let input = shape(0), input.count == 4, let size = try constant(1), size.count == 2 else { return }
            dimensions = [input[0], size[0], size[1], input[3]]
        case 34, 60, 100:  // PAD, PADV2, MIRROR_PAD (input, paddings [rank, 2])
            guard let input = shape(0), let paddings = try constant(1), paddings.count == 2 * input.count else {
                return
            }
            dimensions = input.indices.map { input[$0] &+ paddings[2 * $0] &+ paddings[2 * $0 + 1] }
        case 85:  // ONE_HOT (indices, depth, on, off)
            guard let indices = shape(0), let depth = try constant(1), depth.count == 1 else { return }
            dimensions = indices + depth
        default:
            return
        }
        guard let dimensions else { return }
        let bits = Self.elementBits(tensors[Int(output)].type) ?? 0
        var elements: Int64 = 1
        for dimension in dimensions {
            let (product, overflow) = elements.multipliedReportingOverflow(by: dimension)
            guard dimension >= 0, !overflow, product <= Int64(ModelLimits.maximumTensorBytes) * 8 else {
                throw .malformed(
                    "\(op.what) (builtin operator \(code.builtinCode)) computes an output shaped \(dimensions), "
                        + "larger than the \(ModelLimits.maximumTensorBytes)-byte limit or invalid")
            }
            elements = product
        }
        guard (elements * Int64(max(bits, 8)) + 7) / 8 <= Int64(ModelLimits.maximumTensorBytes) else {
            throw .malformed(
                "\(op.what) (builtin operator \(code.builtinCode)) computes an output shaped \(dimensions), larger "
                    + "than the \(ModelLimits.maximumTensorBytes)-byte limit")
        }
    }

    /// The values of a small constant int32 or int64 tensor (at most 64 of them), or nil.
    private func constantIntegers(_ tensor: VerifiedTensor) -> [Int64]? {
        let data = tensor.data
        guard tensor.isConstant else { return nil }
        switch tensor.type {
        case 2 where data.count <= 256 && data.count % 4 == 0:
            return stride(from: data.lowerBound, to: data.upperBound, by: 4).map {
                Int64(reader.load($0, as: Int32.self))
            }
        case 4 where data.count <= 512 && data.count % 8 == 0:
            return stride(from: data.lowerBound, to: data.upperBound, by: 8).map { reader.load($0, as: Int64.self) }
        default:
            return nil
        }
    }
}
