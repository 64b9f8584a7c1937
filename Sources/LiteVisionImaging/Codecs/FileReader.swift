#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads a whole file into one array allocated at its final size (no intermediate copies).
enum FileReader {
    /// The contents of the file at `path`, or ``ImageDecodingError/fileNotReadable(path:reason:)``.
    static func readAll(atPath path: String) throws(ImageDecodingError) -> [UInt8] {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw .fileNotReadable(path: path, reason: systemReason()) }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw .fileNotReadable(path: path, reason: systemReason()) }
        guard (info.st_mode & S_IFMT) == S_IFREG else {
            let kind = (info.st_mode & S_IFMT) == S_IFDIR ? "it is a directory" : "it is not a regular file"
            throw .fileNotReadable(path: path, reason: kind)
        }
        let size = Int(info.st_size)
        var failure: String?
        let bytes = [UInt8](unsafeUninitializedCapacity: size) { buffer, initialized in
            initialized = 0
            while initialized < size {
                let count = read(descriptor, buffer.baseAddress! + initialized, size - initialized)
                if count > 0 {
                    initialized += count
                } else if count == 0 {
                    break // the file shrank while being read: keep what is there
                } else if errno != EINTR {
                    failure = systemReason()
                    break
                }
            }
        }
        if let failure { throw .fileNotReadable(path: path, reason: failure) }
        return bytes
    }

    private static func systemReason() -> String {
        let code = errno
        guard let text = strerror(code) else { return "error \(code)" }
        return String(cString: text)
    }
}
