/// An input or output tensor of a model, as the `.tflite` file declares it.
package struct TensorInfo: Sendable, Equatable {
    /// The tensor's name in the model graph (for example `"normalized_input_image_tensor"`).
    package var name: String
    /// The declared shape, such as `[1, 224, 224, 3]`. Empty when the file leaves the shape to be computed
    /// at run time (the outputs of the SSD post-processing operator, for instance); dimensions that are
    /// unknown until run time may be `-1` or `1`, so ask the runtime for the final shape.
    package var shape: [Int]
    /// The element type of the tensor.
    package var elementType: TensorElementType
    /// Per-tensor quantization (first scale and zero point), or nil when the tensor is not quantized.
    package var quantization: Quantization?

    /// A tensor description with the given properties.
    package init(name: String, shape: [Int], elementType: TensorElementType, quantization: Quantization? = nil) {
        self.name = name
        self.shape = shape
        self.elementType = elementType
        self.quantization = quantization
    }

    /// The number of elements the declared shape holds (1 for a scalar), or nil when a dimension is
    /// negative (unknown) or the product overflows.
    package var elementCount: Int? {
        var count = 1
        for dimension in shape {
            guard dimension >= 0 else { return nil }
            let (product, overflow) = count.multipliedReportingOverflow(by: dimension)
            guard !overflow else { return nil }
            count = product
        }
        return count
    }
}

/// Affine quantization of a tensor: `real = scale * (quantized - zeroPoint)`.
package struct Quantization: Sendable, Equatable {
    /// The step between two consecutive quantized values.
    package var scale: Float
    /// The quantized value that represents real zero.
    package var zeroPoint: Int

    /// A quantization with the given parameters.
    package init(scale: Float, zeroPoint: Int) {
        self.scale = scale
        self.zeroPoint = zeroPoint
    }

    /// The real value a quantized value stands for.
    package func dequantize(_ value: Int) -> Float {
        scale * Float(value - zeroPoint)
    }
}

/// The element type of a tensor, numbered as in the TFLite schema's `TensorType`.
package enum TensorElementType: Sendable, Equatable, Hashable {
    /// 32-bit IEEE float (`FLOAT32 = 0`).
    case float32
    /// 16-bit IEEE float (`FLOAT16 = 1`).
    case float16
    /// Signed 32-bit integer (`INT32 = 2`).
    case int32
    /// Unsigned 8-bit integer (`UINT8 = 3`), the usual type of quantized image inputs and scores.
    case uint8
    /// Signed 64-bit integer (`INT64 = 4`).
    case int64
    /// Variable-length strings (`STRING = 5`).
    case string
    /// Boolean, one byte per element (`BOOL = 6`).
    case bool
    /// Signed 16-bit integer (`INT16 = 7`).
    case int16
    /// Complex number of two 32-bit floats (`COMPLEX64 = 8`).
    case complex64
    /// Signed 8-bit integer (`INT8 = 9`).
    case int8
    /// 64-bit IEEE float (`FLOAT64 = 10`).
    case float64
    /// Complex number of two 64-bit floats (`COMPLEX128 = 11`).
    case complex128
    /// Unsigned 64-bit integer (`UINT64 = 12`).
    case uint64
    /// Resource handle (`RESOURCE = 13`, experimental).
    case resource
    /// Variant (`VARIANT = 14`, experimental).
    case variant
    /// Unsigned 32-bit integer (`UINT32 = 15`).
    case uint32
    /// Unsigned 16-bit integer (`UINT16 = 16`).
    case uint16
    /// Signed 4-bit integer, packed (`INT4 = 17`).
    case int4
    /// Brain floating point, 16 bits (`BFLOAT16 = 18`).
    case bfloat16
    /// A type number this library does not know.
    case other(Int)

    /// The type for a schema `TensorType` number.
    package init(schemaValue: Int) {
        switch schemaValue {
        case 0: self = .float32
        case 1: self = .float16
        case 2: self = .int32
        case 3: self = .uint8
        case 4: self = .int64
        case 5: self = .string
        case 6: self = .bool
        case 7: self = .int16
        case 8: self = .complex64
        case 9: self = .int8
        case 10: self = .float64
        case 11: self = .complex128
        case 12: self = .uint64
        case 13: self = .resource
        case 14: self = .variant
        case 15: self = .uint32
        case 16: self = .uint16
        case 17: self = .int4
        case 18: self = .bfloat16
        default: self = .other(schemaValue)
        }
    }

    /// The schema `TensorType` number of this type.
    package var schemaValue: Int {
        switch self {
        case .float32: return 0
        case .float16: return 1
        case .int32: return 2
        case .uint8: return 3
        case .int64: return 4
        case .string: return 5
        case .bool: return 6
        case .int16: return 7
        case .complex64: return 8
        case .int8: return 9
        case .float64: return 10
        case .complex128: return 11
        case .uint64: return 12
        case .resource: return 13
        case .variant: return 14
        case .uint32: return 15
        case .uint16: return 16
        case .int4: return 17
        case .bfloat16: return 18
        case let .other(value): return value
        }
    }

    /// Bytes per element, or nil for types without a fixed whole-byte size (strings, packed 4-bit integers,
    /// resources, variants, unknown types).
    package var byteSize: Int? {
        switch self {
        case .uint8, .int8, .bool: return 1
        case .float16, .int16, .uint16, .bfloat16: return 2
        case .float32, .int32, .uint32: return 4
        case .float64, .int64, .uint64, .complex64: return 8
        case .complex128: return 16
        case .string, .resource, .variant, .int4, .other: return nil
        }
    }
}
