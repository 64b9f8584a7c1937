extension ImageDecoder {
    /// Reads and decodes a JPEG or PNG file; see ``decode(_:minimumSize:)-(UnsafeRawBufferPointer,_)``.
    ///
    /// The file is read once, into a buffer of its exact size. A missing or unreadable file throws
    /// ``ImageDecodingError/fileNotReadable(path:reason:)`` with the system's reason.
    public func decodeFile(atPath path: String,
                           minimumSize: (width: Int, height: Int)? = nil) throws(ImageDecodingError) -> DecodedImage {
        try decode(FileReader.readAll(atPath: path), minimumSize: minimumSize)
    }

    /// Reads a file and returns what its header says; see ``inspect(_:)-(UnsafeRawBufferPointer)``.
    public func inspectFile(atPath path: String) throws(ImageDecodingError) -> ImageHeaderInfo {
        try inspect(FileReader.readAll(atPath: path))
    }
}
