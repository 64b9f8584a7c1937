import LiteVisionSystem

/// Reads a whole model or label file, with the failures as ``ModelFileError``s.
func readModelFile(
    atPath path: String, allowEmpty: Bool = false,
    maximumSize: Int = FileContents.defaultMaximumSize
) throws(ModelFileError) -> [UInt8] {
    let bytes: [UInt8]
    do {
        bytes = try FileContents.read(atPath: path, maximumSize: maximumSize)
    } catch {
        throw .unreadableFile(path: path, reason: error.reason)
    }
    guard !bytes.isEmpty || allowEmpty else { throw .empty(path: path) }
    return bytes
}
