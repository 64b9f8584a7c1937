/// Bounds-checked reads of integers from untrusted bytes (image files).
///
/// Every accessor returns `nil` instead of reading outside the buffer, so parsers built on it can
/// follow offsets found in a file without ever trusting them.
struct ByteView {
    /// The bytes being read; not owned.
    let bytes: UnsafeRawBufferPointer

    /// Number of bytes in the view.
    var count: Int { bytes.count }

    /// Whether `length` bytes starting at `offset` lie inside the view (overflow-safe).
    func contains(offset: Int, length: Int) -> Bool {
        offset >= 0 && length >= 0 && offset <= bytes.count && length <= bytes.count - offset
    }

    /// The byte at `offset`.
    func u8(at offset: Int) -> UInt8? {
        contains(offset: offset, length: 1) ? bytes[offset] : nil
    }

    /// A 16-bit unsigned integer at `offset`, big-endian unless `littleEndian`.
    func u16(at offset: Int, littleEndian: Bool = false) -> UInt16? {
        guard contains(offset: offset, length: 2) else { return nil }
        let b0 = UInt16(bytes[offset]), b1 = UInt16(bytes[offset + 1])
        return littleEndian ? (b1 << 8 | b0) : (b0 << 8 | b1)
    }

    /// A 32-bit unsigned integer at `offset`, big-endian unless `littleEndian`.
    func u32(at offset: Int, littleEndian: Bool = false) -> UInt32? {
        guard contains(offset: offset, length: 4) else { return nil }
        var value: UInt32 = 0
        for i in 0..<4 {
            let byte = UInt32(bytes[littleEndian ? offset + 3 - i : offset + i])
            value = value << 8 | byte
        }
        return value
    }

    /// Whether the bytes at `offset` are exactly `expected`.
    func matches(_ expected: [UInt8], at offset: Int) -> Bool {
        guard contains(offset: offset, length: expected.count) else { return false }
        for (i, byte) in expected.enumerated() where bytes[offset + i] != byte { return false }
        return true
    }

    /// The byte order of the TIFF header at `offset`: `true` for `II` (little-endian), `false` for `MM`
    /// (big-endian), `nil` for anything else.
    func tiffIsLittleEndian(at offset: Int) -> Bool? {
        if matches([0x49, 0x49], at: offset) { return true }
        if matches([0x4D, 0x4D], at: offset) { return false }
        return nil
    }

    /// The sub-view of `length` bytes at `offset`, or `nil` when it does not fit.
    func slice(offset: Int, length: Int) -> ByteView? {
        guard contains(offset: offset, length: length) else { return nil }
        return ByteView(bytes: UnsafeRawBufferPointer(rebasing: bytes[offset..<(offset + length)]))
    }
}
