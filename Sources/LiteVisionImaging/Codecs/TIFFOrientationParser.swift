/// Finds the `Orientation` tag (0x0112) in IFD0 of a TIFF structure, the payload of EXIF data.
///
/// Layout: a byte-order mark (`II` little-endian or `MM` big-endian), the number 42, the offset of
/// IFD0; IFD0 is a 16-bit entry count followed by 12-byte entries (tag, type, count, value or
/// offset). Every offset is checked against the buffer; anything malformed yields `nil`.
enum TIFFOrientationParser {
    static let orientationTag: UInt16 = 0x0112

    /// The raw orientation value (normally 1...8) stored in IFD0, or `nil` when absent or malformed.
    static func orientationValue(in tiff: ByteView) -> Int? {
        guard let littleEndian = tiff.tiffIsLittleEndian(at: 0), tiff.u16(at: 2, littleEndian: littleEndian) == 42,
            let ifdOffset32 = tiff.u32(at: 4, littleEndian: littleEndian)
        else { return nil }
        let ifdOffset = Int(ifdOffset32)
        guard ifdOffset >= 8, let entryCount = tiff.u16(at: ifdOffset, littleEndian: littleEndian) else {
            return nil
        }
        for index in 0..<Int(entryCount) {
            let entry = ifdOffset + 2 + index * 12
            guard tiff.contains(offset: entry, length: 12),
                let tag = tiff.u16(at: entry, littleEndian: littleEndian)
            else { return nil }
            guard tag == orientationTag else { continue }
            return inlineValue(of: entry, in: tiff, littleEndian: littleEndian)
        }
        return nil
    }

    /// The value of a one-element entry whose value fits in the entry itself (BYTE, SHORT, LONG and
    /// their signed variants); `nil` for other types or counts.
    private static func inlineValue(of entry: Int, in tiff: ByteView, littleEndian: Bool) -> Int? {
        guard let type = tiff.u16(at: entry + 2, littleEndian: littleEndian),
            let count = tiff.u32(at: entry + 4, littleEndian: littleEndian), count >= 1
        else { return nil }
        let valueOffset = entry + 8
        switch type {
        case 1, 6:  // BYTE, SBYTE
            return tiff.u8(at: valueOffset).map { Int($0) }
        case 3, 8:  // SHORT, SSHORT (the type EXIF specifies for Orientation)
            return tiff.u16(at: valueOffset, littleEndian: littleEndian).map { Int($0) }
        case 4, 9:  // LONG, SLONG: only meaningful with a single element
            guard count == 1 else { return nil }
            return tiff.u32(at: valueOffset, littleEndian: littleEndian).map { Int($0) }
        default:
            return nil
        }
    }
}
