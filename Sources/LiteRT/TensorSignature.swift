/// The element type of a tensor, in the runtime's numbering (TFLite's `TfLiteType`).
package enum ElementType: Int32, Sendable, CustomStringConvertible {
    case float32 = 1, int32 = 2, uint8 = 3, int64 = 4, string = 5, bool = 6, int16 = 7
    case complex64 = 8, int8 = 9, float16 = 10, float64 = 11

    /// Bytes taken by one element (0 for strings).
    package var byteSize: Int {
        switch self {
        case .float32, .int32: 4
        case .uint8, .int8, .bool: 1
        case .int64, .float64, .complex64: 8
        case .int16, .float16: 2
        case .string: 0
        }
    }

    package var description: String {
        switch self {
        case .float32: "float32"
        case .int32: "int32"
        case .uint8: "uint8"
        case .int64: "int64"
        case .string: "string"
        case .bool: "bool"
        case .int16: "int16"
        case .complex64: "complex64"
        case .int8: "int8"
        case .float16: "float16"
        case .float64: "float64"
        }
    }
}

/// One input or output of a compiled model, as the runtime reports it.
package struct TensorSignature: Sendable, Equatable {
    /// The tensor's name in the model.
    package let name: String
    /// The element type; `nil` for a type the runtime reports that LiteVision does not know.
    package let elementType: ElementType?
    /// The raw element type number, kept for error messages when ``elementType`` is `nil`.
    package let elementTypeCode: Int32
    /// The dimensions, e.g. `[1, 224, 224, 3]`.
    package let shape: [Int]
    /// Per-tensor quantization (`real = (q - zeroPoint) * scale`), when the tensor is quantized.
    package let quantization: (scale: Float, zeroPoint: Int)?
    /// Bytes in the runtime's buffer for this tensor (may include padding).
    package let bufferSize: Int

    /// Number of elements (the product of the dimensions).
    package var elementCount: Int { shape.reduce(1, *) }

    package static func == (a: TensorSignature, b: TensorSignature) -> Bool {
        a.name == b.name && a.elementTypeCode == b.elementTypeCode && a.shape == b.shape
            && a.quantization?.scale == b.quantization?.scale
            && a.quantization?.zeroPoint == b.quantization?.zeroPoint && a.bufferSize == b.bufferSize
    }
}
