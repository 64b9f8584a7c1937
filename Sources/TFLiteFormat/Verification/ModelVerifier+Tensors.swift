// The tensor checks of the model verifier: shapes, element types, sizes, constant data and quantization.

extension ModelVerifier {
    /// Bits per element of each TFLite tensor type (`TensorType` in schema.fbs); 0 for strings, resources and
    /// variants, whose size is not a product of their shape; nil for numbers that are no type.
    static func elementBits(_ type: Int) -> Int? {
        switch type {
        case 3, 6, 9, 21, 22: return 8  // uint8, bool, int8, float8 ×2
        case 1, 7, 16, 18: return 16  // float16, int16, uint16, bfloat16
        case 0, 2, 15: return 32  // float32, int32, uint32
        case 4, 8, 10, 12: return 64  // int64, complex64, float64, uint64
        case 11: return 128  // complex128
        case 17, 20: return 4  // int4, uint4 (packed two per byte)
        case 19: return 2  // int2 (packed four per byte)
        case 5, 13, 14: return 0  // string, resource, variant
        default: return nil
        }
    }

    /// Verifies one tensor of a subgraph of `tensorCount` tensors: its fields, shape, type, size, constant data,
    /// quantization and variant types.
    mutating func verifyTensor(_ tensor: FlatBufferTable, tensorCount: Int) throws(ModelFileError) -> VerifiedTensor {
        let what = tensor.what
        try reader.verifyFields(
            tensor,
            [
                .vector(elementSize: 4), .scalar(width: 1), .scalar(width: 4), .string, .reference, .scalar(width: 1),
                .reference, .vector(elementSize: 4), .scalar(width: 1), .reference, .scalar(width: 4),
            ])
        let shape = try verifiedShape(of: tensor)
        let type = Int(try reader.scalar(tensor, 1, default: Int8(0)))
        let size = try Self.size(of: shape, type: type, what)
        let bufferIndex = Int(try reader.scalar(tensor, 2, default: UInt32(0)))
        guard bufferIndex < bufferRanges.count else {
            throw .malformed("\(what) refers to buffer \(bufferIndex), but the model has \(bufferRanges.count)")
        }
        let data = bufferRanges[bufferIndex]
        if try reader.verifiedTable(tensor, 6, "the sparsity of \(what)") != nil {
            throw .malformed("\(what) is sparse, which LiteVision does not load (its layout cannot be verified)")
        }
        if !data.isEmpty { try verifyConstantData(data, type: type, shape: shape, size: size, what) }
        try verifyQuantization(tensor, shape: shape, tensorCount: tensorCount)
        try verifyExtras(of: tensor)
        let isVariable = try reader.scalar(tensor, 5, default: UInt8(0)) != 0
        return VerifiedTensor(
            isConstant: !data.isEmpty, isVariable: isVariable, shape: shape, type: type, data: data,
            byteCount: size.bytes)
    }

    /// The shape of `tensor`: at most ``ModelLimits/maximumRank`` dimensions, none negative.
    private mutating func verifiedShape(of tensor: FlatBufferTable) throws(ModelFileError) -> [Int32] {
        let what = tensor.what
        let shape = try reader.verifiedInt32s(tensor, 0, "the shape of \(what)")
        guard shape.count <= ModelLimits.maximumRank else {
            throw .malformed("\(what) has \(shape.count) dimensions (at most \(ModelLimits.maximumRank) are accepted)")
        }
        if let negative = shape.first(where: { $0 < 0 }) {
            throw .malformed("the shape of \(what) has a negative dimension (\(negative))")
        }
        return shape
    }

    /// The bits per element of a tensor of element type `type` shaped `shape`, its element count and the bytes it
    /// needs, at most ``ModelLimits/maximumTensorBytes``.
    private static func size(
        of shape: [Int32], type: Int, _ what: String
    ) throws(ModelFileError) -> (bits: Int, elements: Int, bytes: Int) {
        guard let bits = elementBits(type) else {
            throw .malformed("\(what) has element type \(type), which is not a TFLite tensor type")
        }
        var elements = 1
        for dimension in shape {
            let (product, overflow) = elements.multipliedReportingOverflow(by: Int(dimension))
            guard !overflow, product <= ModelLimits.maximumTensorBytes * 8 else {
                throw .malformed(
                    "\(what) is shaped \(shape), larger than the \(ModelLimits.maximumTensorBytes)-byte limit")
            }
            elements = product
        }
        let byteCount = (elements * bits + 7) / 8
        guard byteCount <= ModelLimits.maximumTensorBytes else {
            throw .malformed(
                "\(what) is shaped \(shape) (\(byteCount) bytes), larger than the \(ModelLimits.maximumTensorBytes)-byte limit"
            )
        }
        return (bits, elements, byteCount)
    }

    /// The constant data of a tensor: strings laid out as TFLite writes them, or as many bytes as its shape needs
    /// (packed, or a byte per element for sub-byte types).
    private mutating func verifyConstantData(
        _ data: Range<Int>, type: Int, shape: [Int32], size: (bits: Int, elements: Int, bytes: Int), _ what: String
    ) throws(ModelFileError) {
        if type == 5 {
            try verifyStrings(data, elements: size.elements, what)
        } else {
            let packed = size.bytes
            guard size.bits > 0, data.count == packed || (size.bits < 8 && data.count == size.elements) else {
                throw .malformed(
                    "the constant data of \(what) is \(data.count) bytes, but its shape \(shape) needs \(packed)")
            }
        }
    }

    /// The fields of `tensor` after its quantization: its shape signature, variant types, and no external data.
    private mutating func verifyExtras(of tensor: FlatBufferTable) throws(ModelFileError) {
        let what = tensor.what
        for dimension in try reader.verifiedInt32s(tensor, 7, "the shape signature of \(what)") where dimension < -1 {
            throw .malformed("the shape signature of \(what) has an invalid dimension (\(dimension))")
        }
        for variant in try reader.verifiedTables(
            tensor, 9, "the variant types of \(what)", element: { "variant \($0) of \(what)" })
        {
            try reader.verifyFields(variant, [.vector(elementSize: 4), .scalar(width: 1), .scalar(width: 1)])
        }
        guard try reader.scalar(tensor, 10, default: UInt32(0)) == 0 else {
            throw .malformed("\(what) keeps its data in an external file, which LiteVision does not load")
        }
    }

    /// A constant string tensor: a count, count + 1 ascending offsets from the first string to the end.
    private mutating func verifyStrings(_ data: Range<Int>, elements: Int, _ what: String) throws(ModelFileError) {
        func word(_ index: Int) -> Int { Int(reader.load(data.lowerBound + 4 * index, as: Int32.self)) }
        guard data.count >= 8, elements + 2 <= data.count / 4, word(0) == elements else {
            throw .malformed("the constant strings of \(what) do not hold \(elements) strings")
        }
        try reader.charge(elements, "the constant strings of \(what)")
        var previous = 4 * (elements + 2)
        guard word(1) == previous else { throw .malformed("the constant strings of \(what) have a corrupt header") }
        for index in 1...elements + 1 {
            let offset = word(index)
            guard offset >= previous, offset <= data.count else {
                throw .malformed("the constant strings of \(what) have an offset outside their data")
            }
            previous = offset
        }
        guard previous == data.count else { throw .malformed("the constant strings of \(what) do not fill their data") }
    }

    private mutating func verifyQuantization(
        _ tensor: FlatBufferTable, shape: [Int32],
        tensorCount: Int
    ) throws(ModelFileError) {
        guard let parameters = try reader.verifiedTable(tensor, 4, "the quantization of \(tensor.what)") else { return }
        try reader.verifyFields(
            parameters,
            [
                .vector(elementSize: 4), .vector(elementSize: 4), .vector(elementSize: 4), .vector(elementSize: 8),
                .scalar(width: 1), .reference, .scalar(width: 4),
            ])
        let scales = try reader.vector(parameters, 2, elementSize: 4, "")?.count ?? 0
        let zeroPoints = try reader.vector(parameters, 3, elementSize: 8, "")?.count ?? 0
        if scales > 0, zeroPoints > 0, scales != zeroPoints {
            throw .malformed("\(parameters.what) has \(scales) scales but \(zeroPoints) zero points")
        }
        let dimension = Int(try reader.scalar(parameters, 6, default: Int32(0)))
        if scales > 1 || dimension != 0 {
            guard dimension >= 0, dimension < shape.count, scales <= 1 || Int(shape[dimension]) == scales else {
                throw .malformed(
                    "\(parameters.what) has \(scales) scales along dimension \(dimension) of shape \(shape)")
            }
        }
        let detailsType = try reader.scalar(parameters, 4, default: UInt8(0))
        guard detailsType != 0,
            let details = try reader.verifiedTable(parameters, 5, "the quantization details of \(tensor.what)")
        else { return }
        switch detailsType {
        case 1:
            try reader.verifyFields(details, [.vector(elementSize: 1)])
        case 2, 3:
            try reader.verifyFields(
                details, [.scalar(width: 4), .scalar(width: 4), .scalar(width: 4), .vector(elementSize: 4)])
            for field in 0..<2 {
                let index = Int(try reader.scalar(details, field, default: Int32(0)))
                guard index >= 0, index < tensorCount else {
                    throw .malformed("\(details.what) refers to tensor \(index), but the subgraph has \(tensorCount)")
                }
            }
            guard try reader.scalar(details, 2, default: Int32(0)) >= 1 || detailsType == 3 else {
                throw .malformed("\(details.what) has a block size below 1")
            }
            for dimension in try reader.verifiedInt32s(details, 3, "the dimensions of \(details.what)")
            where detailsType == 3 && (dimension < 0 || Int(dimension) >= shape.count) {
                throw .malformed("\(details.what) names dimension \(dimension) of shape \(shape)")
            }
        default:
            throw .malformed("\(parameters.what) has details of type \(detailsType), which the schema does not define")
        }
    }
}
