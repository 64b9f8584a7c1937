import LiteVisionSystem
extension ImageDecoder {
    /// Reads and decodes a JPEG or PNG file; see ``decode(_:minimumSize:orientation:)-(UnsafeRawBufferPointer,_,_)``.
    ///
    /// The file is read once, into a buffer of its exact size. A missing or unreadable file throws
    /// ``ImageDecodingError/fileNotReadable(path:reason:)`` with the system's reason.
    package func decodeFile(
        atPath path: String,
        minimumSize: (width: Int, height: Int)? = nil
    ) throws(ImageDecodingError) -> DecodedImage {
        try decode(Self.readFile(path), minimumSize: minimumSize)
    }

    /// Reads a file and returns what its header says; see ``inspect(_:)-(UnsafeRawBufferPointer)``.
    package func inspectFile(atPath path: String) throws(ImageDecodingError) -> ImageHeaderInfo {
        try inspect(Self.readFile(path))
    }

    private static func readFile(_ path: String) throws(ImageDecodingError) -> [UInt8] {
        do {
            return try FileContents.read(atPath: path)
        } catch {
            throw .fileNotReadable(path: path, reason: error.reason)
        }
    }
}
