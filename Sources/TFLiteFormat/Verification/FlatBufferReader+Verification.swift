// The FlatBuffers verifier's rules, on top of the bounds checks every read already makes: every field a
// table declares lies inside the table, every string and vector lies inside the buffer and is aligned, and
// strings end with their zero byte. The model verifier applies them to every table of a model.

extension FlatBufferReader {
    /// Validates the table at `position` and its vtable, and that both are aligned as FlatBuffers requires.
    func verifiedTable(at position: Int, _ what: String) throws(ModelFileError) -> FlatBufferTable {
        let table = try table(at: position, what)
        guard (table.position - start) % 4 == 0, (table.vtable - start) % 2 == 0 else {
            throw invalid("\(what) is not aligned (table at byte \(table.position), vtable at byte \(table.vtable))")
        }
        return table
    }

    /// Checks every field that `table`'s vtable declares against `kinds` (indexed by field number): scalars
    /// lie inside the table, strings and vectors of scalars inside the buffer. Reference fields (tables,
    /// vectors of tables, unions) are only checked to lie inside the table: the caller follows them. Fields
    /// past `kinds` (written by a newer schema) must lie inside the table too.
    mutating func verifyFields(_ table: FlatBufferTable, _ kinds: [FieldKind]) throws(ModelFileError) {
        let fieldCount = (table.vtableLength - 4) / 2
        try charge(fieldCount, "the fields of \(table.what)")
        for id in 0..<fieldCount {
            let offset = Int(load(table.vtable + 4 + 2 * id, as: UInt16.self))
            guard offset != 0 else { continue }
            let kind = id < kinds.count ? kinds[id] : .deprecated
            let width: Int
            switch kind {
            case .scalar(let scalarWidth): width = scalarWidth
            case .deprecated, .activation, .padding: width = 1
            case .string, .vector, .reference, .subgraphIndex, .subgraphIndices, .positive: width = 4
            }
            guard offset >= 4, offset + width <= table.objectLength else {
                throw invalid("field \(id) of \(table.what) lies outside its table")
            }
            switch kind {
            case .string:
                _ = try verifiedString(
                    at: try followOffset(at: table.position + offset, "field \(id)"), "\(table.what), field \(id)")
            case .vector(let elementSize):
                _ = try verifiedVector(table, id, elementSize: elementSize, "\(table.what), field \(id)")
            case .subgraphIndices:
                _ = try verifiedVector(table, id, elementSize: 4, "\(table.what), field \(id)")
            case .scalar, .deprecated, .reference, .subgraphIndex, .activation, .padding, .positive:
                break
            }
        }
    }

    /// A vector field checked as the FlatBuffers verifier does (inside the buffer, its length aligned), or
    /// nil when absent.
    func verifiedVector(
        _ table: FlatBufferTable, _ id: Int, elementSize: Int,
        _ what: String
    ) throws(ModelFileError) -> FlatBufferVector? {
        guard let vector = try vector(table, id, elementSize: elementSize, what) else { return nil }
        guard (vector.start - 4 - start) % 4 == 0 else {
            throw invalid("\(what) is not aligned (its length is at byte \(vector.start - 4))")
        }
        return vector
    }

    /// The byte range of the string at `position`, checked to lie inside the buffer, aligned, and followed by
    /// its terminating zero byte; the bytes are not copied.
    mutating func verifiedString(at position: Int, _ what: String) throws(ModelFileError) -> Range<Int> {
        try checkRange(position, 4, "the length of \(what)")
        guard (position - start) % 4 == 0 else { throw invalid("\(what) is not aligned (at byte \(position))") }
        let length = Int(load(position, as: UInt32.self))
        try checkRange(position + 4, length + 1, what)
        try charge(length / 64, what)
        guard bytes[position + 4 + length] == 0 else { throw invalid("\(what) does not end with a zero byte") }
        return (position + 4)..<(position + 4 + length)
    }

    /// Every element of a vector-of-tables field, each verified and aligned, or an empty array when absent.
    mutating func verifiedTables(
        _ table: FlatBufferTable, _ id: Int,
        _ what: String, element: (Int) -> String
    ) throws(ModelFileError) -> [FlatBufferTable] {
        guard let vector = try verifiedVector(table, id, elementSize: 4, what) else { return [] }
        try charge(vector.count, what)
        var tables: [FlatBufferTable] = []
        tables.reserveCapacity(vector.count)
        for index in 0..<vector.count {
            let name = element(index)
            tables.append(try verifiedTable(at: try followOffset(at: vector.start + 4 * index, name), name))
        }
        return tables
    }

    /// A sub-table field, verified and aligned, or nil when absent.
    func verifiedTable(_ table: FlatBufferTable, _ id: Int, _ what: String) throws(ModelFileError) -> FlatBufferTable? {
        guard let position = try fieldPosition(table, id, width: 4) else { return nil }
        return try verifiedTable(at: try followOffset(at: position, what), what)
    }

    /// The elements of a vector of 32-bit integers, verified, or an empty array when absent.
    mutating func verifiedInt32s(_ table: FlatBufferTable, _ id: Int, _ what: String) throws(ModelFileError) -> [Int32]
    {
        guard let vector = try verifiedVector(table, id, elementSize: 4, what) else { return [] }
        try charge(vector.count, what)
        return (0..<vector.count).map { load(vector.start + 4 * $0, as: Int32.self) }
    }
}
