import LiteVisionGeometry

/// The EXIF orientation MediaPipe's `Image.create_from_file` turns a file by (MediaPipe 1.2.2, which reads it with
/// easyexif and applies every orientation 1...8, mirrors included, to the pixels it decoded).
///
/// easyexif's reading is narrower than ``EXIFReader``'s, and this follows it exactly, so that a file gives what
/// MediaPipe gives:
/// - JPEG only: a PNG's `eXIf` chunk is ignored (the file is processed as stored).
/// - The data must contain an end-of-image marker (`FF D9`) somewhere; easyexif ignores what follows the last one.
/// - The EXIF segment is the first `FF E1` byte pair of the file, wherever it is, and it must start with
///   `Exif\0\0`: when an XMP APP1 segment comes first, nothing is applied.
/// - The tag must be a SHORT (type 3), as EXIF specifies; a BYTE or LONG orientation is ignored.
/// - Any fault easyexif finds in IFD0 or in the entry counts of the EXIF and GPS sub-IFDs cancels the orientation.
/// - Offsets are 32-bit and may point anywhere in the rest of the file, as easyexif lets them.
enum EasyEXIFOrientation {
    /// The orientation MediaPipe applies to the JPEG or PNG file `bytes`: ``ImageOrientation/up`` when none.
    static func orientation(in bytes: ByteView) -> ImageOrientation {
        orientationValue(in: bytes).flatMap { ImageOrientation(exifValue: Int($0)) } ?? .up
    }

    /// The `Orientation` value easyexif reads (0 when the tag is absent), or nil when it fails to parse the file.
    static func orientationValue(in bytes: ByteView) -> UInt16? {
        let data = bytes.bytes
        guard data.count >= 4, data.count <= Int(UInt32.max), data[0] == 0xFF, data[1] == 0xD8 else { return nil }
        // The data is taken to end with its last FF D9.
        var length = data.count
        while length > 2, !(data[length - 1] == 0xD9 && data[length - 2] == 0xFF) { length -= 1 }
        guard length > 2 else { return nil }
        var offset = 0
        while offset < length - 1, !(data[offset] == 0xFF && data[offset + 1] == 0xE1) { offset += 1 }
        guard offset + 4 <= length else { return nil }
        offset += 2
        let sectionLength = Int(data[offset]) << 8 | Int(data[offset + 1])
        guard offset + sectionLength <= length, sectionLength >= 16 else { return nil }
        offset += 2
        let segment = ByteView(bytes: UnsafeRawBufferPointer(rebasing: data[offset..<length]))
        return orientationValue(inSegment: segment)
    }

    /// easyexif's `parseFromEXIFSegment`, reduced to what decides the orientation: `segment` starts with
    /// `Exif\0\0` and runs to the end of the data.
    private static func orientationValue(inSegment segment: ByteView) -> UInt16? {
        let length = UInt32(segment.count)
        guard length >= 6, segment.matches(Array("Exif".utf8) + [0, 0], at: 0), 6 + 8 <= length,
            let littleEndian = segment.tiffIsLittleEndian(at: 6)
        else { return nil }
        let tiffStart: UInt32 = 6
        func u16(_ offset: UInt32) -> UInt16? { segment.u16(at: Int(offset), littleEndian: littleEndian) }
        func u32(_ offset: UInt32) -> UInt32? { segment.u32(at: Int(offset), littleEndian: littleEndian) }
        guard u16(8) == 0x2A, let firstIFD = u32(10) else { return nil }
        // easyexif adds the offset to its position 10 and takes 4 off, in unsigned 32-bit arithmetic.
        var offset = 10 &+ firstIFD &- 4
        guard offset < length, offset &+ 2 <= length, let entryCount = u16(offset),
            UInt64(offset) + 6 + 12 * UInt64(entryCount) <= UInt64(length)
        else { return nil }
        offset += 2
        var orientation: UInt16 = 0
        var exifIFD = length, gpsIFD = length
        for _ in 0..<Int(entryCount) {
            if let entry = entry(at: offset, in: segment, tiffStart: tiffStart, littleEndian: littleEndian) {
                switch entry.tag {
                case 0x0112 where entry.type == 3:
                    if let first = entry.firstShort { orientation = first }
                case 0x8825: gpsIFD = tiffStart &+ entry.value
                case 0x8769: exifIFD = tiffStart &+ entry.value
                default: break
                }
            }
            offset += 12
        }
        // The sub-IFDs' entries do not matter, but a count running past the data fails the whole parse.
        for subIFD in [exifIFD, gpsIFD] where subIFD &+ 4 <= length {
            guard let count = u16(subIFD), UInt64(subIFD) + 6 + 12 * UInt64(count) <= UInt64(length) else {
                return nil
            }
        }
        return orientation
    }

    /// One IFD entry as easyexif's `parseIFEntry` leaves it, or nil where it marks the entry invalid (tag 0xFF):
    /// an entry running past the data, an unknown type, or values (BYTE, ASCII, SHORT, LONG, RATIONAL) that do not
    /// fit in the data.
    private static func entry(
        at offset: UInt32, in segment: ByteView, tiffStart: UInt32, littleEndian: Bool
    ) -> (tag: UInt16, type: UInt16, value: UInt32, firstShort: UInt16?)? {
        let position = Int(offset)
        guard segment.contains(offset: position, length: 12),
            let tag = segment.u16(at: position, littleEndian: littleEndian),
            let type = segment.u16(at: position + 2, littleEndian: littleEndian),
            let count = segment.u32(at: position + 4, littleEndian: littleEndian),
            let value = segment.u32(at: position + 8, littleEndian: littleEndian)
        else { return nil }
        let size: UInt64
        switch type {
        case 1, 2: size = 1
        case 3: size = 2
        case 4: size = 4
        case 5: size = 8
        case 7, 9, 10: return (tag, type, value, nil)
        default: return nil
        }
        let byteCount = size * UInt64(count)
        guard type == 3, count > 0 else {
            // Values that do not fit in the entry must lie inside the data.
            if byteCount > 4, UInt64(tiffStart &+ value) + byteCount > UInt64(segment.count) { return nil }
            return (tag, type, value, nil)
        }
        // A SHORT: stored in the entry when it fits (the first two bytes of the value field), else at the offset.
        let valueOffset = byteCount <= 4 ? UInt64(position + 8) : UInt64(tiffStart &+ value)
        guard valueOffset + byteCount <= UInt64(segment.count),
            let first = segment.u16(at: Int(valueOffset), littleEndian: littleEndian)
        else { return nil }
        return (tag, type, value, first)
    }
}
