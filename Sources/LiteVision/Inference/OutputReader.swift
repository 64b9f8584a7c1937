import LiteRTRuntime

/// Reads a model's score output as floats, dequantizing `(q - zeroPoint) * scale`.
enum OutputReader {
    static func dequantize(_ raw: UnsafeRawBufferPointer, signature: TensorSignature, count: Int,
                           into scores: inout [Float]) {
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

/// The highest scores at or above a threshold, highest first, ties by lower index.
enum TopScores {
    static func select(_ scores: UnsafeBufferPointer<Float>, threshold: Float, limit: Int) -> [(index: Int, score: Float)] {
        guard limit > 0 else { return [] }
        var top: [(index: Int, score: Float)] = []
        top.reserveCapacity(limit + 1)
        for (index, score) in scores.enumerated() where score >= threshold && !score.isNaN {
            if top.count == limit, let last = top.last, score <= last.score { continue }
            // Insert after every entry with a score >= this one (earlier indices win ties).
            var position = top.count
            while position > 0 && top[position - 1].score < score { position -= 1 }
            top.insert((index, score), at: position)
            if top.count > limit { top.removeLast() }
        }
        return top
    }
}
