// A tiny FlatBuffer writer for test fixtures. It writes front to back and patches each forward offset
// once its target is written, which is all a reader needs (offsets are relative, vtables may precede
// their tables). Written for these tests; it is not a general FlatBuffers builder.

/// A value of a table field.
public enum FBValue: Sendable {
    case u8(UInt8)
    case i8(Int8)
    case u32(UInt32)
    case i32(Int32)
    case u64(UInt64)
    case f32(Float)
    case node(FBNode)
}

/// Something a FlatBuffer offset can point to.
public indirect enum FBNode: Sendable {
    /// A table; the key is the field id.
    case table([Int: FBValue])
    case string(String)
    /// A vector of scalars, given as raw little-endian bytes.
    case scalars([UInt8], elementSize: Int)
    case strings([String])
    case tables([FBNode])
    /// A vector of `count` offsets that all point to one table (an aliasing structure).
    case repeatedTable(FBNode, count: Int)

    public static func int32s(_ values: [Int32]) -> FBNode {
        .scalars(values.flatMap { le(UInt32(bitPattern: $0)) }, elementSize: 4)
    }
    public static func uint32s(_ values: [UInt32]) -> FBNode {
        .scalars(values.flatMap { le($0) }, elementSize: 4)
    }
    public static func floats(_ values: [Float]) -> FBNode {
        .scalars(values.flatMap { le($0.bitPattern) }, elementSize: 4)
    }
    public static func int64s(_ values: [Int64]) -> FBNode {
        .scalars(values.flatMap { le(UInt64(bitPattern: $0)) }, elementSize: 8)
    }
    public static func bytes(_ values: [UInt8]) -> FBNode {
        .scalars(values, elementSize: 1)
    }
}

/// Little-endian bytes of an integer.
public func le<T: FixedWidthInteger>(_ value: T) -> [UInt8] {
    withUnsafeBytes(of: value.littleEndian) { Array($0) }
}

/// Serializes a FlatBuffer with a root table and a 4-character file identifier.
public struct FBWriter {
    public private(set) var out: [UInt8] = []

    public static func buffer(root: FBNode, identifier: String) -> [UInt8] {
        var writer = FBWriter()
        writer.out = [0, 0, 0, 0] + Array(identifier.utf8)
        let position = writer.write(root)
        writer.patch(slot: 0, target: position)
        return writer.out
    }

    private mutating func align(_ alignment: Int) {
        while out.count % alignment != 0 { out.append(0) }
    }

    private mutating func set32(_ value: UInt32, at position: Int) {
        for index in 0..<4 { out[position + index] = UInt8(truncatingIfNeeded: value >> (8 * UInt32(index))) }
    }

    private mutating func set16(_ value: UInt16, at position: Int) {
        out[position] = UInt8(truncatingIfNeeded: value)
        out[position + 1] = UInt8(truncatingIfNeeded: value >> 8)
    }

    private mutating func patch(slot: Int, target: Int) {
        set32(UInt32(target - slot), at: slot)
    }

    private mutating func offsetSlots(_ count: Int) -> Int {
        align(4)
        let position = out.count
        out += le(UInt32(count))
        out += [UInt8](repeating: 0, count: 4 * count)
        return position
    }

    public mutating func write(_ node: FBNode) -> Int {
        switch node {
        case let .string(text):
            align(4)
            let position = out.count
            out += le(UInt32(text.utf8.count)) + Array(text.utf8) + [0]
            return position
        case let .scalars(bytes, elementSize):
            align(4)
            // The elements of a vector of 8-byte scalars start 8-byte aligned, as FlatBuffers' own verifier (which
            // LiteRT runs on models loaded from memory) requires.
            if elementSize == 8 && out.count % 8 == 0 { out += [0, 0, 0, 0] }
            let position = out.count
            out += le(UInt32(bytes.count / elementSize)) + bytes
            return position
        case let .strings(list):
            let position = offsetSlots(list.count)
            for (index, text) in list.enumerated() {
                let target = write(.string(text))
                patch(slot: position + 4 + 4 * index, target: target)
            }
            return position
        case let .tables(list):
            let position = offsetSlots(list.count)
            for (index, table) in list.enumerated() {
                let target = write(table)
                patch(slot: position + 4 + 4 * index, target: target)
            }
            return position
        case let .repeatedTable(table, count):
            let position = offsetSlots(count)
            let target = write(table)
            for index in 0..<count { patch(slot: position + 4 + 4 * index, target: target) }
            return position
        case let .table(fields):
            let maxID = fields.keys.max() ?? -1
            align(4)
            let vtable = out.count
            let vtableLength = 4 + 2 * (maxID + 1)
            out += [UInt8](repeating: 0, count: vtableLength)
            align(4)
            let table = out.count
            out += le(Int32(table - vtable))
            var children: [(slot: Int, node: FBNode)] = []
            for id in fields.keys.sorted() {
                // Each field at an address that is a multiple of its size, as FlatBuffers' verifier checks.
                let width: Int
                switch fields[id]! {
                case .u8, .i8: width = 1
                case .u64: width = 8
                default: width = 4
                }
                align(width)
                set16(UInt16(out.count - table), at: vtable + 4 + 2 * id)
                switch fields[id]! {
                case let .u8(value): out += [value]
                case let .i8(value): out += [UInt8(bitPattern: value)]
                case let .u32(value): out += le(value)
                case let .i32(value): out += le(value)
                case let .u64(value): out += le(value)
                case let .f32(value): out += le(value.bitPattern)
                case let .node(child):
                    children.append((out.count, child))
                    out += [0, 0, 0, 0]
                }
            }
            set16(UInt16(vtableLength), at: vtable)
            set16(UInt16(out.count - table), at: vtable + 2)
            for child in children {
                let target = write(child.node)
                patch(slot: child.slot, target: target)
            }
            return table
        }
    }
}
