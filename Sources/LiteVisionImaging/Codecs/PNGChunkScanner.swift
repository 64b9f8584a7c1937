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
}
