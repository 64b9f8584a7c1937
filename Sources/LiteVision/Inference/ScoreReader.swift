import LiteRT

/// Reads a model's score output as floats, dequantizing `(q - zeroPoint) * scale`.
enum ScoreReader {
    static func dequantize(
        _ raw: UnsafeRawBufferPointer, signature: TensorSignature, count: Int,
        into scores: inout [Float]
    ) {
        if scores.count != count { scores = [Float](repeating: 0, count: count) }
        let scale = signature.quantization?.scale ?? 1
        let zeroPoint = Float(signature.quantization?.zeroPoint ?? 0)
        let quantized = signature.quantization != nil && scale != 0
        scores.withUnsafeMutableBufferPointer { out in
            switch signature.elementType {
            case .uint8:
                let q = raw.bindMemory(to: UInt8.self)
                for i in 0..<count { out[i] = quantized ? (Float(q[i]) - zeroPoint) * scale : Float(q[i]) }
            case .int8:
                let q = raw.bindMemory(to: Int8.self)
                for i in 0..<count { out[i] = quantized ? (Float(q[i]) - zeroPoint) * scale : Float(q[i]) }
            default:
                let values = raw.bindMemory(to: Float.self)
                for i in 0..<count { out[i] = values[i] }
            }
        }
    }
}
