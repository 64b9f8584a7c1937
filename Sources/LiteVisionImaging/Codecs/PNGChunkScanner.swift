/// Walks the chunks of a PNG file: an 8-byte signature, then chunks made of a 32-bit big-endian
/// length, a 4-byte type, the data and a CRC. Lengths are checked against the buffer and the PNG
/// limit of 2^31 - 1; a chunk that runs past the end stops the walk.
enum PNGChunkScanner {
    /// The 8-byte PNG file signature.
    static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// One chunk: its four-letter type and its data (CRC not checked here; libpng checks it).
    struct Chunk {
        let type: String
        let data: ByteView
    }

    /// Whether the bytes start with the PNG signature.
    static func hasSignature(_ bytes: ByteView) -> Bool {
        bytes.matches(signature, at: 0)
    }

    /// Calls `body` for each chunk in file order until it returns `false` or IEND is reached.
    static func forEachChunk(in bytes: ByteView, _ body: (Chunk) -> Bool) {
        guard hasSignature(bytes) else { return }
        var position = signature.count
        while let length32 = bytes.u32(at: position), length32 <= 0x7FFF_FFFF,
            let typeBytes = bytes.slice(offset: position + 4, length: 4),
            let data = bytes.slice(offset: position + 8, length: Int(length32))
        {
            let type = String(decoding: typeBytes.bytes, as: UTF8.self)
            guard body(Chunk(type: type, data: data)), type != "IEND" else { return }
            position += 12 + Int(length32)
        }
    }

    /// Width and height from the IHDR chunk, which must come first; `nil` when it is missing or short.
    static func headerSize(in bytes: ByteView) -> (width: UInt32, height: UInt32)? {
        guard hasSignature(bytes), bytes.u32(at: 8) == 13, bytes.matches(Array("IHDR".utf8), at: 12),
            let width = bytes.u32(at: 16), let height = bytes.u32(at: 20)
        else { return nil }
        return (width, height)
    }

    /// What ends a PNG file's chunk sequence.
    enum Ending: Equatable {
        /// An IEND chunk with its one valid CRC.
        case intact
        /// An IEND chunk whose CRC (or length) is wrong.
        case damaged
        /// No IEND: the chunks run out (or one runs past the end of the data) first.
        case missing
    }

    /// The CRC of an IEND chunk, which has no data: the CRC-32 of the four bytes `IEND`.
    static let endChunkCRC: UInt32 = 0xAE42_6082

    /// Walks the chunks, without reading their data, to the IEND chunk and checks it. libpng's simplified
    /// API stops reading after the last image row, so it never sees IEND, a critical chunk.
    static func ending(of bytes: ByteView) -> Ending {
        guard hasSignature(bytes) else { return .missing }
        var position = signature.count
        while let length32 = bytes.u32(at: position), length32 <= 0x7FFF_FFFF,
            bytes.contains(offset: position + 8, length: Int(length32) + 4)
        {
            if bytes.matches(Array("IEND".utf8), at: position + 4) {
                return length32 == 0 && bytes.u32(at: position + 8) == endChunkCRC ? .intact : .damaged
            }
            position += 12 + Int(length32)
        }
        return .missing
    }
}
