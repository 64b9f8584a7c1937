#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads a whole regular file into memory with a single copy.
///
/// A missing, unreadable or non-regular file throws ``ModelFileError/unreadableFile(path:reason:)``;
/// an empty one throws ``ModelFileError/empty(path:)``.
func readWholeFile(atPath path: String) throws(ModelFileError) -> [UInt8] {
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else {
        throw .unreadableFile(path: path, reason: systemErrorDescription(errno))
    }
    defer { close(descriptor) }

    var status = stat()
    guard fstat(descriptor, &status) == 0 else {
        throw .unreadableFile(path: path, reason: systemErrorDescription(errno))
    }
    let kind = status.st_mode & S_IFMT
    guard kind == S_IFREG else {
        throw .unreadableFile(path: path, reason: kind == S_IFDIR ? "it is a directory" : "it is not a regular file")
    }
    let size = Int(status.st_size)
    guard size > 0 else { throw .empty(path: path) }

    var readError: Int32 = 0
    let bytes = [UInt8](unsafeUninitializedCapacity: size) { buffer, initializedCount in
        var done = 0
        while done < size {
            let count = read(descriptor, buffer.baseAddress! + done, size - done)
            if count > 0 {
                done += count
            } else if count == 0 {
                break
            } else if errno != EINTR {
                readError = errno
                break
            }
        }
        initializedCount = done
    }
    guard readError == 0 else {
        throw .unreadableFile(path: path, reason: systemErrorDescription(readError))
    }
    guard bytes.count == size else {
        throw .unreadableFile(path: path, reason: "the file shrank from \(size) to \(bytes.count) bytes while being read")
    }
    return bytes
}

/// The C library's description of an `errno` value, in lower case as it reads inside a sentence.
private func systemErrorDescription(_ code: Int32) -> String {
    guard let message = strerror(code) else { return "error \(code)" }
    let text = String(cString: message)
    guard let first = text.first else { return "error \(code)" }
    return first.lowercased() + text.dropFirst()
}
