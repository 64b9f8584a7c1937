// A bounds-checked reader of FlatBuffers, written for the two schemas this module reads (the TFLite model
// and the TFLite Model Metadata). Every read is checked against a window of the byte array; a violation
// throws a ModelFileError naming what was being read, so malformed input can never crash the process.

/// Which FlatBuffer a reader walks, so that its errors land in the matching ``ModelFileError`` case.
enum FlatBufferDomain: Sendable {
    /// The `.tflite` model itself (identifier `TFL3`).
    case model
    /// The TFLite Model Metadata buffer (identifier `M001`).
    case metadata
}

/// A validated FlatBuffer table: its position, its vtable and the size of its inline data.
struct FlatBufferTable {
    /// Absolute byte position of the table (where its vtable offset is stored).
    let position: Int
    /// Absolute byte position of the table's vtable.
    let vtable: Int
    /// Size of the vtable in bytes (including its two header fields).
    let vtableLength: Int
    /// Size of the table's inline data in bytes (including the vtable offset).
    let objectLength: Int
    /// What the table is, for error messages ("subgraph 0", "output tensor metadata 1"…).
    let what: String
}

/// A validated FlatBuffer vector: where its elements start and how many there are.
struct FlatBufferVector {
    /// Absolute byte position of the first element.
    let start: Int
    /// Number of elements (already checked to fit inside the window).
    let count: Int
    /// Size of one element in bytes (4 for offsets to tables and strings).
    let elementSize: Int
    /// What the vector is, for error messages.
    let what: String
}

/// Reads one FlatBuffer held in `bytes[start..<end]` without copying it.
///
/// Offsets inside a FlatBuffer are relative, so positions handled here are absolute positions in `bytes`;
/// the window only bounds them. The reader also keeps a work budget proportional to the window size, charged
/// for every element and string byte it materialises: a corrupt buffer whose vectors alias each other can
/// therefore not make parsing take quadratic time or memory.
struct FlatBufferReader {
    let bytes: [UInt8]
    let start: Int
    let end: Int
    let domain: FlatBufferDomain
    private var budget: Int

    /// A reader of `bytes[start..<end]`; the caller guarantees `0 <= start <= end <= bytes.count`.
    init(bytes: [UInt8], start: Int, end: Int, domain: FlatBufferDomain) {
        precondition(start >= 0 && start <= end && end <= bytes.count)
        self.bytes = bytes
        self.start = start
        self.end = end
        self.domain = domain
        self.budget = 2 * (end - start) + 65_536
    }

    // MARK: Errors

    private var windowName: String {
        switch domain {
        case .model: return "\(end - start)-byte model"
        case .metadata: return "\(end - start)-byte metadata buffer"
        }
    }

    /// The error for a read that falls outside the window.
    func outOfBounds(_ what: String, at position: Int, length: Int) -> ModelFileError {
        let detail = "\(what) (\(length) bytes at byte \(position)) lies outside the \(windowName)"
        switch domain {
        case .model: return .truncatedOrCorrupt(detail)
        case .metadata: return .malformedMetadata(detail)
        }
    }

    /// The error for a structure that is inside the window but invalid.
    func invalid(_ detail: String) -> ModelFileError {
        switch domain {
        case .model: return .malformed(detail)
        case .metadata: return .malformedMetadata(detail)
        }
    }

    // MARK: Raw reads

    /// Checks that `length` bytes at `position` lie inside the window.
    func checkRange(_ position: Int, _ length: Int, _ what: @autoclosure () -> String) throws(ModelFileError) {
        guard length >= 0, position >= start, position <= end, length <= end - position else {
            throw outOfBounds(what(), at: position, length: length)
        }
    }

    /// A little-endian integer at an already checked position.
    func load<T: FixedWidthInteger>(_ position: Int, as type: T.Type) -> T {
        bytes.withUnsafeBytes { raw in
            T(littleEndian: raw.loadUnaligned(fromByteOffset: position, as: T.self))
        }
    }

    /// Charges `units` of work to the budget, failing once it is exhausted.
    mutating func charge(_ units: Int, _ what: @autoclosure () -> String) throws(ModelFileError) {
        budget -= units
        guard budget >= 0 else {
            throw invalid(
                "\(what()) makes the buffer describe far more data than it holds (aliased or corrupt offsets)")
        }
    }

    /// Follows the unsigned 32-bit offset stored at `position`, returning the absolute position it points to.
    func followOffset(at position: Int, _ what: @autoclosure () -> String) throws(ModelFileError) -> Int {
        try checkRange(position, 4, "the offset to \(what())")
        return position + Int(load(position, as: UInt32.self))
    }

    // MARK: Tables

    /// The root table, whose offset is stored in the first four bytes of the window.
    func rootTable(_ what: String) throws(ModelFileError) -> FlatBufferTable {
        try table(at: try followOffset(at: start, what), what)
    }

    /// Validates the table at `position` and its vtable.
    func table(at position: Int, _ what: String) throws(ModelFileError) -> FlatBufferTable {
        try checkRange(position, 4, what)
        let vtable = position - Int(load(position, as: Int32.self))
        try checkRange(vtable, 4, "the vtable of \(what)")
        let vtableLength = Int(load(vtable, as: UInt16.self))
        let objectLength = Int(load(vtable + 2, as: UInt16.self))
        guard vtableLength >= 4, vtableLength % 2 == 0 else {
            throw invalid("the vtable of \(what) has an invalid size (\(vtableLength) bytes)")
        }
        try checkRange(vtable, vtableLength, "the vtable of \(what)")
        guard objectLength >= 4 else {
            throw invalid("\(what) has an invalid size (\(objectLength) bytes)")
        }
        try checkRange(position, objectLength, what)
        return FlatBufferTable(
            position: position, vtable: vtable, vtableLength: vtableLength,
            objectLength: objectLength, what: what)
    }

    /// The absolute position of field `id` of `table`, or nil when the field is absent (default value).
    func fieldPosition(_ table: FlatBufferTable, _ id: Int, width: Int) throws(ModelFileError) -> Int? {
        let slot = 4 + 2 * id
        guard slot + 2 <= table.vtableLength else { return nil }
        let offset = Int(load(table.vtable + slot, as: UInt16.self))
        guard offset != 0 else { return nil }
        guard offset >= 4, offset + width <= table.objectLength else {
            throw invalid("field \(id) of \(table.what) lies outside its table")
        }
        return table.position + offset
    }

    /// A scalar field, or `defaultValue` when absent.
    func scalar<T: FixedWidthInteger>(
        _ table: FlatBufferTable, _ id: Int,
        default defaultValue: T
    ) throws(ModelFileError) -> T {
        guard let position = try fieldPosition(table, id, width: MemoryLayout<T>.size) else { return defaultValue }
        return load(position, as: T.self)
    }

    /// A 32-bit float field, or `defaultValue` when absent.
    func float(_ table: FlatBufferTable, _ id: Int, default defaultValue: Float) throws(ModelFileError) -> Float {
        guard let position = try fieldPosition(table, id, width: 4) else { return defaultValue }
        return Float(bitPattern: load(position, as: UInt32.self))
    }

    /// A sub-table field, or nil when absent.
    func table(_ table: FlatBufferTable, _ id: Int, _ what: String) throws(ModelFileError) -> FlatBufferTable? {
        guard let position = try fieldPosition(table, id, width: 4) else { return nil }
        return try self.table(at: try followOffset(at: position, what), what)
    }

    // MARK: Vectors

    /// A vector field, or nil when absent. Its length is checked against the bytes left in the window.
    func vector(
        _ table: FlatBufferTable, _ id: Int, elementSize: Int,
        _ what: String
    ) throws(ModelFileError) -> FlatBufferVector? {
        guard let position = try fieldPosition(table, id, width: 4) else { return nil }
        let vectorPosition = try followOffset(at: position, what)
        try checkRange(vectorPosition, 4, "the length of \(what)")
        let count = Int(load(vectorPosition, as: UInt32.self))
        let first = vectorPosition + 4
        guard count <= (end - first) / elementSize else {
            throw outOfBounds("\(what) (\(count) elements)", at: first, length: count * elementSize)
        }
        return FlatBufferVector(start: first, count: count, elementSize: elementSize, what: what)
    }

    /// Element `index` of a vector of tables.
    func tableElement(
        _ vector: FlatBufferVector, _ index: Int,
        _ what: @autoclosure () -> String
    ) throws(ModelFileError) -> FlatBufferTable {
        precondition(index >= 0 && index < vector.count)
        let description = what()
        return try table(at: try followOffset(at: vector.start + 4 * index, description), description)
    }

    /// Every element of a vector of tables, charged to the budget.
    mutating func tableElements(
        _ vector: FlatBufferVector?,
        _ what: (Int) -> String
    ) throws(ModelFileError) -> [FlatBufferTable] {
        guard let vector else { return [] }
        try charge(vector.count, vector.what)
        var tables: [FlatBufferTable] = []
        tables.reserveCapacity(vector.count)
        for index in 0..<vector.count {
            tables.append(try tableElement(vector, index, what(index)))
        }
        return tables
    }

    /// A vector of integers of type `T`, or nil when absent.
    mutating func integers<T: FixedWidthInteger>(
        _ table: FlatBufferTable, _ id: Int, as type: T.Type,
        _ what: String
    ) throws(ModelFileError) -> [T]? {
        let size = MemoryLayout<T>.size
        guard let vector = try vector(table, id, elementSize: size, what) else { return nil }
        try charge(vector.count, what)
        return (0..<vector.count).map { load(vector.start + $0 * size, as: T.self) }
    }

    /// A vector of 32-bit floats, or nil when absent.
    mutating func floats(_ table: FlatBufferTable, _ id: Int, _ what: String) throws(ModelFileError) -> [Float]? {
        try integers(table, id, as: UInt32.self, what).map { $0.map(Float.init(bitPattern:)) }
    }

    /// The position and length of a `[ubyte]` vector field, or nil when absent; the bytes are not copied.
    func byteRange(_ table: FlatBufferTable, _ id: Int, _ what: String) throws(ModelFileError) -> Range<Int>? {
        guard let vector = try vector(table, id, elementSize: 1, what) else { return nil }
        return vector.start..<(vector.start + vector.count)
    }

    /// Data a table keeps after the FlatBuffer (models over 2 GB): the `offset` and `size` fields, relative to
    /// the start of the file and checked to lie inside it; nil when the offset is 0 or 1 (the data is inline).
    func outsideData(
        _ table: FlatBufferTable, offsetField: Int, sizeField: Int,
        _ what: String
    ) throws(ModelFileError) -> Range<Int>? {
        let offset = try scalar(table, offsetField, default: UInt64(0))
        guard offset > 1 else { return nil }
        let size = try scalar(table, sizeField, default: UInt64(0))
        let fileSize = UInt64(bytes.count)
        guard offset <= fileSize, size <= fileSize - offset else {
            throw .truncatedOrCorrupt(
                "\(what) (\(size) bytes at byte \(offset)) lies outside the \(fileSize)-byte file")
        }
        return Int(offset)..<Int(offset + size)
    }

    // MARK: Strings

    /// The string at `position` (a 32-bit length followed by UTF-8 bytes); invalid UTF-8 is repaired.
    mutating func string(at position: Int, _ what: @autoclosure () -> String) throws(ModelFileError) -> String {
        try checkRange(position, 4, "the length of \(what())")
        let length = Int(load(position, as: UInt32.self))
        try checkRange(position + 4, length, what())
        try charge(length, what())
        return String(decoding: bytes[(position + 4)..<(position + 4 + length)], as: UTF8.self)
    }

    /// A string field, or nil when absent.
    mutating func string(_ table: FlatBufferTable, _ id: Int, _ what: String) throws(ModelFileError) -> String? {
        guard let position = try fieldPosition(table, id, width: 4) else { return nil }
        return try string(at: try followOffset(at: position, what), what)
    }

    /// A vector of strings, or nil when absent.
    mutating func strings(_ table: FlatBufferTable, _ id: Int, _ what: String) throws(ModelFileError) -> [String]? {
        guard let vector = try vector(table, id, elementSize: 4, what) else { return nil }
        try charge(vector.count, what)
        var result: [String] = []
        result.reserveCapacity(vector.count)
        for index in 0..<vector.count {
            let position = try followOffset(at: vector.start + 4 * index, "\(what) [\(index)]")
            result.append(try string(at: position, "\(what) [\(index)]"))
        }
        return result
    }
}
