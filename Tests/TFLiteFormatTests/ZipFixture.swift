import LiteVisionTestSupport
import CZlib

/// Writes small zip archives for tests: stored or deflated entries, with offsets relative to the start of
/// the final file (as TFLite models have them) or to the start of the zip.
enum ZipFixture {
    struct Entry {
        var name: String
        var data: [UInt8]
        var deflate: Bool = false
    }

    /// A zip to be appended at byte `start` of a file.
    static func archive(_ entries: [Entry], start: Int, offsetsFromFileStart: Bool = true) -> [UInt8] {
        let base = offsetsFromFileStart ? start : 0
        var out: [UInt8] = []
        var directory: [UInt8] = []
        for entry in entries {
            let stored = entry.deflate ? rawDeflate(entry.data) : entry.data
            let crc = UInt32(
                truncatingIfNeeded: entry.data.withUnsafeBufferPointer {
                    crc32(0, $0.baseAddress, uInt($0.count))
                })
            let name = Array(entry.name.utf8)
            let method: UInt16 = entry.deflate ? 8 : 0
            let localOffset = UInt32(base + out.count)
            out += le(UInt32(0x0403_4B50)) + le(UInt16(20)) + le(UInt16(0)) + le(method) + le(UInt32(0))
            out += le(crc) + le(UInt32(stored.count)) + le(UInt32(entry.data.count))
            out += le(UInt16(name.count)) + le(UInt16(0)) + name + stored
            directory += le(UInt32(0x0201_4B50)) + le(UInt16(20)) + le(UInt16(20)) + le(UInt16(0)) + le(method)
            directory += le(UInt32(0)) + le(crc) + le(UInt32(stored.count)) + le(UInt32(entry.data.count))
            directory += le(UInt16(name.count)) + le(UInt16(0)) + le(UInt16(0)) + le(UInt16(0)) + le(UInt16(0))
            directory += le(UInt32(0)) + le(localOffset) + name
        }
        let directoryOffset = UInt32(base + out.count)
        out += directory
        out += le(UInt32(0x0605_4B50)) + le(UInt16(0)) + le(UInt16(0))
        out += le(UInt16(entries.count)) + le(UInt16(entries.count))
        out += le(UInt32(directory.count)) + le(directoryOffset) + le(UInt16(0))
        return out
    }

    /// Raw deflate (no zlib header or trailer), as zip method 8 stores it.
    static func rawDeflate(_ data: [UInt8]) -> [UInt8] {
        var capacity = compressBound(uLong(data.count))
        var output = [UInt8](repeating: 0, count: Int(capacity))
        let status = output.withUnsafeMutableBufferPointer { destination in
            data.withUnsafeBufferPointer { source in
                compress2(destination.baseAddress, &capacity, source.baseAddress, uLong(source.count), 9)
            }
        }
        precondition(status == Z_OK)
        // A zlib stream is a 2-byte header, the raw deflate data and a 4-byte Adler-32 trailer.
        return Array(output[2..<(Int(capacity) - 4)])
    }
}
