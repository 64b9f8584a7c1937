// Checks a FlexBuffer (the self-describing format of the custom options of operators such as
// TFLite_Detection_PostProcess) before the runtime reads it: every offset, size and nested value lies inside
// the buffer. The runtime reads these options without checking them.

/// Verifies the FlexBuffer in `bytes[range]`, recursively, within a depth and work budget.
struct FlexBufferVerifier {
    let bytes: [UInt8]
    let range: Range<Int>
    let what: String
    private var budget: Int
    /// The integer values of the root map, by key (for the operator's own checks of its settings).
    private(set) var rootIntegers: [String: Int64] = [:]

    init(bytes: [UInt8], range: Range<Int>, what: String) {
        self.bytes = bytes
        self.range = range
        self.what = what
        self.budget = 4 * range.count + 1024
    }

    private func failure(_ detail: String) -> ModelFileError {
        .malformed("the custom options of \(what) are not a valid FlexBuffer: \(detail)")
    }

    /// Checks the root value and everything it refers to.
    mutating func verify() throws(ModelFileError) {
        guard range.count >= 3 else { throw failure("\(range.count) bytes are too few") }
        let rootWidth = Int(bytes[range.upperBound - 1])
        guard [1, 2, 4, 8].contains(rootWidth) else { throw failure("the root width \(rootWidth) is invalid") }
        let packedType = bytes[range.upperBound - 2]
        let rootPosition = range.upperBound - 2 - rootWidth
        guard rootPosition >= range.lowerBound else { throw failure("the root lies outside the buffer") }
        try verifyValue(at: rootPosition, parentWidth: rootWidth, packedType: packedType, depth: 0)
    }

    /// An unsigned integer of `width` bytes at `position`, checked to lie inside the buffer.
    private func unsigned(at position: Int, width: Int) throws(ModelFileError) -> UInt64 {
        guard position >= range.lowerBound, width <= range.upperBound - position, position <= range.upperBound
        else { throw failure("a value at byte \(position) lies outside the buffer") }
        var value: UInt64 = 0
        for index in 0..<width { value |= UInt64(bytes[position + index]) << (8 * index) }
        return value
    }

    /// The position an offset stored at `position` (of `width` bytes) points back to.
    private func target(at position: Int, width: Int) throws(ModelFileError) -> Int {
        let offset = try unsigned(at: position, width: width)
        guard offset <= UInt64(position - range.lowerBound) else {
            throw failure("an offset at byte \(position) points before the buffer")
        }
        return position - Int(offset)
    }

    private mutating func verifyValue(
        at position: Int, parentWidth: Int, packedType: UInt8,
        depth: Int
    ) throws(ModelFileError) {
        budget -= 1
        guard budget >= 0, depth < 64 else { throw failure("it nests too deeply or describes too much data") }
        let type = Int(packedType >> 2)
        let childWidth = 1 << Int(packedType & 3)
        _ = try unsigned(at: position, width: parentWidth)
        switch type {
        case 0, 1, 2, 3, 26:  // null, int, uint, float, bool: inline
            return
        case 4:  // key: a zero-terminated string
            let start = try target(at: position, width: parentWidth)
            guard let end = bytes[start..<range.upperBound].firstIndex(of: 0) else {
                throw failure("a key has no terminating zero")
            }
            budget -= end - start
            guard budget >= 0 else { throw failure("its keys describe far more data than it holds") }
        case 5, 25:  // string, blob: size, bytes (and a zero for strings)
            let start = try target(at: position, width: parentWidth)
            let size = try unsigned(at: start - childWidth, width: childWidth)
            guard size <= UInt64(range.upperBound - start) - (type == 5 ? 1 : 0) else {
                throw failure("a string of \(size) bytes at byte \(start) runs past the buffer")
            }
            if type == 5, bytes[start + Int(size)] != 0 { throw failure("a string does not end with a zero byte") }
        case 6, 7, 8:  // indirect int, uint, float
            let start = try target(at: position, width: parentWidth)
            _ = try unsigned(at: start, width: childWidth)
        case 9, 10:  // map, vector: size, elements, one packed type per element
            let start = try target(at: position, width: parentWidth)
            let count = try elementCount(at: start, width: childWidth, elementBytes: childWidth + 1)
            if type == 9 {
                let keys = try target(at: start - 3 * childWidth, width: childWidth)
                let keyWidth = Int(try unsigned(at: start - 2 * childWidth, width: childWidth))
                guard [1, 2, 4, 8].contains(keyWidth) else { throw failure("a map's key width \(keyWidth) is invalid") }
                guard try elementCount(at: keys, width: keyWidth, elementBytes: keyWidth) == count else {
                    throw failure("a map has a different number of keys and values")
                }
                for index in 0..<count {
                    try verifyValue(
                        at: keys + index * keyWidth, parentWidth: keyWidth, packedType: 4 << 2, depth: depth + 1)
                }
                if depth == 0 {
                    try recordRootIntegers(
                        keys: keys, keyWidth: keyWidth, values: start, width: childWidth, count: count)
                }
            }
            let types = start + count * childWidth
            for index in 0..<count {
                try verifyValue(
                    at: start + index * childWidth, parentWidth: childWidth, packedType: bytes[types + index],
                    depth: depth + 1)
            }
        case 11, 12, 13, 14, 15, 36:  // typed vectors (int, uint, float, key, string, bool): size, elements
            let start = try target(at: position, width: parentWidth)
            let count = try elementCount(at: start, width: childWidth, elementBytes: childWidth)
            let elementType: UInt8? = type == 14 ? 4 : type == 15 ? 5 : nil
            if let elementType {
                for index in 0..<count {
                    try verifyValue(
                        at: start + index * childWidth, parentWidth: childWidth,
                        packedType: elementType << 2 | packedType & 3, depth: depth + 1)
                }
            }
        case 16...24:  // fixed typed vectors of 2, 3 or 4 elements: no size field
            let start = try target(at: position, width: parentWidth)
            let length = (type - 16) / 3 + 2
            _ = try unsigned(at: start, width: 0)
            guard length * childWidth <= range.upperBound - start else {
                throw failure("a fixed vector at byte \(start) runs past the buffer")
            }
        default:
            throw failure("value type \(type) is unknown")
        }
    }

    /// Records the integer (and unsigned) values of an already verified root map.
    private mutating func recordRootIntegers(
        keys: Int, keyWidth: Int, values: Int, width: Int,
        count: Int
    ) throws(ModelFileError) {
        let types = values + count * width
        for index in 0..<count {
            let type = bytes[types + index] >> 2
            guard type == 1 || type == 2 else { continue }
            let key = try target(at: keys + index * keyWidth, width: keyWidth)
            guard let end = bytes[key..<range.upperBound].firstIndex(of: 0) else { continue }
            var value = try unsigned(at: values + index * width, width: width)
            if type == 1, width < 8, value >> (8 * width - 1) == 1 { value |= ~UInt64(0) << UInt64(8 * width) }  // sign-extend
            rootIntegers[String(decoding: bytes[key..<end], as: UTF8.self)] = Int64(bitPattern: value)
        }
    }

    /// The element count stored before a vector at `start`, checked so that `count * elementBytes` bytes
    /// fit between `start` and the end of the buffer.
    private mutating func elementCount(at start: Int, width: Int, elementBytes: Int) throws(ModelFileError) -> Int {
        let count = try unsigned(at: start - width, width: width)
        guard count <= UInt64((range.upperBound - start) / elementBytes) else {
            throw failure("a vector of \(count) elements at byte \(start) runs past the buffer")
        }
        budget -= Int(count)
        guard budget >= 0 else { throw failure("it describes far more data than it holds") }
        return Int(count)
    }
}
