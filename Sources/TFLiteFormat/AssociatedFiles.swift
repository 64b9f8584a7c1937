/// The files of the zip appended to a TFLite model (its "associated files": label lists, vocabularies…).
///
/// A model with associated files is both a FlatBuffer and a zip archive: the zip follows the FlatBuffer,
/// with its central directory at the end of the file. The directory is read when the model is parsed;
/// each file is read, checked (sizes, CRC-32) and, if deflated, decompressed only when asked for.
package struct AssociatedFiles: Sendable {
    private let bytes: [UInt8]
    private let directory: ZipDirectory

    /// No files.
    package init() {
        bytes = []
        directory = ZipDirectory(entries: [], directoryStart: 0)
    }

    /// Reads the zip at the end of `bytes` (a whole model file, or a plain zip archive).
    /// Data that does not end with a zip yields no files.
    ///
    /// - Throws: ``ModelFileError/malformedAssociatedFiles(_:)`` when the zip's directory is corrupt,
    ///   ``ModelFileError/unsupportedAssociatedFile(_:)`` for Zip64 or multi-disk archives.
    package init(bytes: [UInt8]) throws(ModelFileError) {
        self.bytes = bytes
        self.directory = try ZipDirectory.find(in: bytes) ?? ZipDirectory(entries: [], directoryStart: 0)
    }

    /// The names of the files, in the zip's order.
    package var names: [String] { directory.entries.map(\.name) }

    /// Whether there are no files.
    package var isEmpty: Bool { directory.entries.isEmpty }

    /// Whether a file of this name exists.
    package func contains(_ name: String) -> Bool {
        directory.entries.contains { $0.name == name }
    }

    /// The contents of the file `name` (the first one, if the zip lists it twice), or nil when there is
    /// no such file.
    ///
    /// - Throws: ``ModelFileError/malformedAssociatedFiles(_:)`` when the file's header, size or CRC-32 is
    ///   wrong or its compressed data is corrupt; ``ModelFileError/unsupportedAssociatedFile(_:)`` when it
    ///   is encrypted or compressed with a method other than stored or deflate.
    package func data(named name: String) throws(ModelFileError) -> [UInt8]? {
        guard let entry = directory.entries.first(where: { $0.name == name }) else { return nil }
        return try data(of: entry)
    }

    /// Refuses a file larger than ``ModelLimits/maximumAssociatedFileBytes`` before it is copied or inflated.
    private func checkSizeLimit(_ entry: ZipEntry) throws(ModelFileError) {
        guard entry.uncompressedSize <= ModelLimits.maximumAssociatedFileBytes else {
            throw .malformedAssociatedFiles(
                "\"\(entry.name)\" is \(entry.uncompressedSize) bytes, more than the "
                    + "\(ModelLimits.maximumAssociatedFileBytes) bytes an associated file may have")
        }
    }

    private func data(of entry: ZipEntry) throws(ModelFileError) -> [UInt8] {
        let name = entry.name
        if entry.flags & 1 != 0 { throw .unsupportedAssociatedFile("\"\(name)\" is encrypted") }
        guard entry.method == 0 || entry.method == 8 else {
            throw .unsupportedAssociatedFile(
                "\"\(name)\" uses compression method \(entry.method) "
                    + "(only stored and deflate are supported)")
        }

        let limit = directory.directoryStart
        let header = entry.localHeader
        guard limit - header >= 30, read32(bytes, header) == 0x0403_4B50 else {
            throw .malformedAssociatedFiles(
                "the local header of \"\(name)\" (at byte \(header)) is not a valid "
                    + "zip local header")
        }
        let nameLength = Int(read16(bytes, header + 26))
        let extraLength = Int(read16(bytes, header + 28))
        let dataStart = header + 30 + nameLength + extraLength
        guard dataStart <= limit, entry.compressedSize <= limit - dataStart else {
            throw .malformedAssociatedFiles(
                "the data of \"\(name)\" (\(entry.compressedSize) bytes after its local "
                    + "header at byte \(header)) runs past the end of the file data")
        }
        guard bytes[(header + 30)..<(header + 30 + nameLength)].elementsEqual(entry.nameBytes) else {
            throw .malformedAssociatedFiles(
                "the local header at byte \(header) names a different file than "
                    + "the central directory's \"\(name)\"")
        }
        let stored = bytes[dataStart..<(dataStart + entry.compressedSize)]

        let contents: [UInt8]
        if entry.method == 0 {
            guard entry.compressedSize == entry.uncompressedSize else {
                throw .malformedAssociatedFiles(
                    "\"\(name)\" is stored uncompressed but its sizes differ "
                        + "(\(entry.compressedSize) and \(entry.uncompressedSize) bytes)")
            }
            try checkSizeLimit(entry)
            contents = Array(stored)
        } else {
            // Deflate cannot expand data more than about 1032 times: a larger claim is a corrupt size.
            guard entry.uncompressedSize <= entry.compressedSize * 1032 + 1024 else {
                throw .malformedAssociatedFiles(
                    "\"\(name)\" claims \(entry.uncompressedSize) bytes from only "
                        + "\(entry.compressedSize) compressed bytes")
            }
            try checkSizeLimit(entry)
            contents = try inflateRaw(stored, expectedSize: entry.uncompressedSize, name: name)
        }
        let checksum = crc32Checksum(contents)
        guard checksum == entry.crc32 else {
            throw .malformedAssociatedFiles(
                "\"\(name)\" fails its CRC-32 check (expected \(hex(entry.crc32)), "
                    + "computed \(hex(checksum)))")
        }
        return contents
    }
}

private func hex(_ value: UInt32) -> String {
    let digits = String(value, radix: 16)
    return "0x" + String(repeating: "0", count: 8 - digits.count) + digits
}
