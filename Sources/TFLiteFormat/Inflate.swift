import CZlib

/// Decompresses a raw deflate stream (zip method 8) that must yield exactly `expectedSize` bytes.
///
/// The output grows as data actually comes out (up to `expectedSize`), so a corrupt size field cannot make
/// this allocate more memory than the stream really decompresses to.
func inflateRaw(_ input: ArraySlice<UInt8>, expectedSize: Int, name: String) throws(ModelFileError) -> [UInt8] {
    var stream = z_stream()
    guard inflateInit2_(&stream, -MAX_WBITS, zlibVersion(), Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
        throw .malformedAssociatedFiles("zlib could not start decompressing \"\(name)\"")
    }
    defer { inflateEnd(&stream) }

    // One spare byte beyond the announced size reveals a stream that yields more than announced.
    let limit = expectedSize + 1
    var output = [UInt8](repeating: 0, count: min(limit, max(65_536, input.count * 4)))
    var failure: String?
    input.withUnsafeBufferPointer { source in
        stream.next_in = UnsafeMutablePointer(mutating: source.baseAddress)
        stream.avail_in = uInt(source.count)
        while true {
            let produced = Int(stream.total_out)
            let status = output.withUnsafeMutableBufferPointer { destination -> Int32 in
                stream.next_out = destination.baseAddress! + produced
                stream.avail_out = uInt(destination.count - produced)
                return inflate(&stream, Z_NO_FLUSH)
            }
            if status == Z_STREAM_END { return }
            guard status == Z_OK || status == Z_BUF_ERROR else {
                failure = status == Z_DATA_ERROR ? "its deflate data is corrupt" : "zlib failed with status \(status)"
                return
            }
            if stream.avail_out == 0 {
                guard output.count < limit else {
                    failure = "its deflate data is longer than its size says"
                    return
                }
                output += [UInt8](repeating: 0, count: min(limit, output.count * 2) - output.count)
            } else if stream.avail_in == 0 || status == Z_BUF_ERROR {
                failure = "its deflate data is truncated"
                return
            }
        }
    }
    if let failure { throw .malformedAssociatedFiles("cannot decompress \"\(name)\": \(failure)") }
    let produced = Int(stream.total_out)
    guard produced == expectedSize else {
        throw .malformedAssociatedFiles(
            "\"\(name)\" decompresses to \(produced) bytes, but its size says \(expectedSize)")
    }
    output.removeLast(output.count - produced)
    return output
}

/// The CRC-32 of `data`, as zip stores it.
func crc32Checksum(_ data: [UInt8]) -> UInt32 {
    data.withUnsafeBufferPointer { buffer in
        UInt32(truncatingIfNeeded: crc32(0, buffer.baseAddress, uInt(buffer.count)))
    }
}
