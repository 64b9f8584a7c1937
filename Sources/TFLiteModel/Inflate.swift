import CZlib

/// Decompresses a raw deflate stream (zip method 8) that must yield exactly `expectedSize` bytes.
func inflateRaw(_ input: ArraySlice<UInt8>, expectedSize: Int, name: String) throws(ModelFileError) -> [UInt8] {
    var stream = z_stream()
    guard inflateInit2_(&stream, -MAX_WBITS, zlibVersion(), Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
        throw .malformedAssociatedFiles("zlib could not start decompressing \"\(name)\"")
    }
    defer { inflateEnd(&stream) }

    // One spare byte: a stream that yields more than announced then fails the size check below.
    var output = [UInt8](repeating: 0, count: expectedSize + 1)
    var status: Int32 = Z_OK
    input.withUnsafeBufferPointer { source in
        output.withUnsafeMutableBufferPointer { destination in
            stream.next_in = UnsafeMutablePointer(mutating: source.baseAddress)
            stream.avail_in = uInt(source.count)
            stream.next_out = destination.baseAddress
            stream.avail_out = uInt(destination.count)
            status = inflate(&stream, Z_FINISH)
        }
    }
    guard status == Z_STREAM_END else {
        let reason = status == Z_DATA_ERROR ? "its deflate data is corrupt"
            : status == Z_BUF_ERROR ? "its deflate data is truncated or longer than its size says"
            : "zlib failed with status \(status)"
        throw .malformedAssociatedFiles("cannot decompress \"\(name)\": \(reason)")
    }
    guard Int(stream.total_out) == expectedSize else {
        throw .malformedAssociatedFiles("\"\(name)\" decompresses to \(stream.total_out) bytes, but its size "
                                        + "says \(expectedSize)")
    }
    output.removeLast()
    return output
}

/// The CRC-32 of `data`, as zip stores it.
func crc32Checksum(_ data: [UInt8]) -> UInt32 {
    data.withUnsafeBufferPointer { buffer in
        UInt32(truncatingIfNeeded: crc32(0, buffer.baseAddress, uInt(buffer.count)))
    }
}
