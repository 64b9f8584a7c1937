/// Builds a minimal JPEG APP1 EXIF segment holding only an `Orientation` tag.
enum EXIFSegmentBuilder {
    /// `FF E1`, length, `Exif\0\0`, then a big-endian TIFF header and an IFD0 with a single entry:
    /// tag 0x0112, type SHORT, count 1, the value, and a zero "next IFD" offset.
    static func orientationSegment(value: UInt16) -> [UInt8] {
        var tiff: [UInt8] = [0x4D, 0x4D, 0x00, 0x2A, 0x00, 0x00, 0x00, 0x08]  // "MM", 42, IFD0 at 8
        tiff += [0x00, 0x01]  // one entry
        tiff += [0x01, 0x12, 0x00, 0x03, 0x00, 0x00, 0x00, 0x01]  // 0x0112, SHORT, 1
        tiff += [UInt8(value >> 8), UInt8(value & 0xFF), 0x00, 0x00]  // value, padding
        tiff += [0x00, 0x00, 0x00, 0x00]  // no next IFD
        let payload: [UInt8] = [0x45, 0x78, 0x69, 0x66, 0x00, 0x00] + tiff  // "Exif\0\0"
        let length = payload.count + 2
        return [0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + payload
    }
}
