// Reads the central directory of a zip archive found at the end of a byte array (the associated files a
// TFLite model carries after its FlatBuffer). Every offset and length is checked against the array.

/// One file listed in a zip's central directory.
struct ZipEntry: Sendable {
    /// The file's name.
    var name: String
    /// The raw bytes of the name, to compare with the local header's copy.
    var nameBytes: [UInt8]
    /// General purpose flags (bit 0: encrypted).
    var flags: UInt16
    /// Compression method (0 stored, 8 deflate).
    var method: UInt16
    /// CRC-32 of the uncompressed data.
    var crc32: UInt32
    /// Size of the stored (possibly compressed) data.
    var compressedSize: Int
    /// Size of the data once uncompressed.
    var uncompressedSize: Int
    /// Absolute position of the entry's local header in the byte array.
    var localHeader: Int
}

/// The central directory of a zip archive at the end of a byte array.
struct ZipDirectory: Sendable {
    /// The entries, in central directory order.
    var entries: [ZipEntry]
    /// Absolute position where the central directory starts; file data must end before it.
    var directoryStart: Int

    private static let endSignature: UInt32 = 0x0605_4B50
    private static let entrySignature: UInt32 = 0x0201_4B50
    private static let endRecordSize = 22
    private static let entrySize = 46

    /// Finds and reads the zip at the end of `bytes`; nil when `bytes` do not end with a zip.
    ///
    /// The End Of Central Directory record is searched backwards from the end (over at most 64 KiB of
    /// comment), and only accepted when its comment runs exactly to the end of the data. Offsets in the
    /// directory may be relative to the start of the array (as in TFLite models, where the zip is appended
    /// after the FlatBuffer) or to the start of the zip: the difference is taken from where the central
    /// directory actually lies.
    static func find(in bytes: [UInt8]) throws(ModelFileError) -> ZipDirectory? {
        guard let end = findEndRecord(bytes) else { return nil }
        let layout = try DirectoryLayout(bytes, endRecord: end)
        var entries: [ZipEntry] = []
        entries.reserveCapacity(layout.entryCount)
        var position = layout.start
        for index in 0..<layout.entryCount {
            let (entry, recordLength) = try readEntry(bytes, at: position, index: index, layout: layout)
            entries.append(entry)
            position += recordLength
        }
        return ZipDirectory(entries: entries, directoryStart: layout.start)
    }

    /// Where the central directory lies, as its End Of Central Directory record says, checked.
    private struct DirectoryLayout {
        /// The position of the End Of Central Directory record (the directory ends there).
        var end: Int
        /// The position where the central directory starts.
        var start: Int
        /// What the directory's offsets are relative to: 0 for the start of the array, else the start of the zip.
        var base: Int
        /// The number of entries.
        var entryCount: Int

        /// The layout of the end record at `end` in `bytes`: one disk, no Zip64, a directory that fits before its
        /// end record, an offset that does not point past it, and no more entries than the directory can hold.
        init(_ bytes: [UInt8], endRecord end: Int) throws(ModelFileError) {
            let disk = read16(bytes, end + 4), directoryDisk = read16(bytes, end + 6)
            let entriesOnDisk = Int(read16(bytes, end + 8)), entryCount = Int(read16(bytes, end + 10))
            let directorySize = Int(read32(bytes, end + 12)), directoryOffset = Int(read32(bytes, end + 16))
            if entryCount == 0xFFFF || directorySize == 0xFFFF_FFFF || directoryOffset == 0xFFFF_FFFF {
                throw .unsupportedAssociatedFile("the zip is a Zip64 archive")
            }
            guard disk == 0, directoryDisk == 0, entriesOnDisk == entryCount else {
                throw .unsupportedAssociatedFile("the zip spans several disks")
            }
            guard directorySize <= end else {
                throw .malformedAssociatedFiles(
                    "the central directory size (\(directorySize) bytes) is larger than "
                        + "the \(end) bytes before its end record")
            }
            let directoryStart = end - directorySize
            guard directoryOffset <= directoryStart else {
                throw .malformedAssociatedFiles(
                    "the central directory offset (\(directoryOffset)) points past where "
                        + "the directory lies (byte \(directoryStart))")
            }
            guard entryCount <= directorySize / ZipDirectory.entrySize else {
                throw .malformedAssociatedFiles(
                    "the central directory claims \(entryCount) entries but holds only "
                        + "\(directorySize) bytes")
            }
            self.end = end
            self.start = directoryStart
            self.base = directoryStart - directoryOffset
            self.entryCount = entryCount
        }
    }

    /// Reads central directory entry `index` at `position`, checked against `layout`; returns it and the length
    /// of its record.
    private static func readEntry(
        _ bytes: [UInt8], at position: Int, index: Int, layout: DirectoryLayout
    ) throws(ModelFileError) -> (entry: ZipEntry, recordLength: Int) {
        let end = layout.end, directoryStart = layout.start
        guard end - position >= entrySize, read32(bytes, position) == entrySignature else {
            throw .malformedAssociatedFiles(
                "central directory entry \(index) (at byte \(position)) is not a "
                    + "valid entry")
        }
        let nameLength = Int(read16(bytes, position + 28))
        let extraLength = Int(read16(bytes, position + 30))
        let commentLength = Int(read16(bytes, position + 32))
        let recordLength = entrySize + nameLength + extraLength + commentLength
        guard recordLength <= end - position else {
            throw .malformedAssociatedFiles(
                "central directory entry \(index) (at byte \(position)) runs past "
                    + "the end of the directory")
        }
        let nameBytes = Array(bytes[(position + entrySize)..<(position + entrySize + nameLength)])
        let name = String(decoding: nameBytes, as: UTF8.self)
        let compressedSize = Int(read32(bytes, position + 20))
        let uncompressedSize = Int(read32(bytes, position + 24))
        let localOffset = Int(read32(bytes, position + 42))
        if compressedSize == 0xFFFF_FFFF || uncompressedSize == 0xFFFF_FFFF || localOffset == 0xFFFF_FFFF {
            throw .unsupportedAssociatedFile("\"\(name)\" uses Zip64 sizes or offsets")
        }
        let localHeader = layout.base + localOffset
        guard localHeader < directoryStart else {
            throw .malformedAssociatedFiles(
                "the local header offset of \"\(name)\" (\(localOffset)) points "
                    + "past the file data (which ends at byte \(directoryStart))")
        }
        let entry = ZipEntry(
            name: name, nameBytes: nameBytes, flags: read16(bytes, position + 8),
            method: read16(bytes, position + 10), crc32: read32(bytes, position + 16),
            compressedSize: compressedSize, uncompressedSize: uncompressedSize,
            localHeader: localHeader)
        return (entry, recordLength)
    }

    /// The position of the End Of Central Directory record whose comment ends exactly at the end of `bytes`.
    private static func findEndRecord(_ bytes: [UInt8]) -> Int? {
        guard bytes.count >= endRecordSize else { return nil }
        let last = bytes.count - endRecordSize
        let first = max(0, last - 0xFFFF)
        var position = last
        while position >= first {
            if bytes[position] == 0x50, read32(bytes, position) == endSignature,
                position + endRecordSize + Int(read16(bytes, position + 20)) == bytes.count
            {
                return position
            }
            position -= 1
        }
        return nil
    }
}

/// A little-endian 16-bit integer at a position the caller has checked.
func read16(_ bytes: [UInt8], _ position: Int) -> UInt16 {
    UInt16(bytes[position]) | UInt16(bytes[position + 1]) << 8
}

/// A little-endian 32-bit integer at a position the caller has checked.
func read32(_ bytes: [UInt8], _ position: Int) -> UInt32 {
    UInt32(bytes[position]) | UInt32(bytes[position + 1]) << 8
        | UInt32(bytes[position + 2]) << 16 | UInt32(bytes[position + 3]) << 24
}
