#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads whole files into memory with one allocation and specific errors.
enum FileReader {
    /// Files larger than this are refused (no model or photo LiteVision handles comes near it).
    static let maximumSize = 2 << 30

    /// The bytes of the file at `path`.
    static func read(_ path: String) throws(VisionError) -> [UInt8] {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            let code = errno
            throw .fileNotReadable(path: path, reason: code == ENOENT ? "no such file" : String(cString: strerror(code)))
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw .fileNotReadable(path: path, reason: String(cString: strerror(errno))) }
        guard (info.st_mode & S_IFMT) == S_IFREG else {
            throw .fileNotReadable(path: path, reason: (info.st_mode & S_IFMT) == S_IFDIR ? "it is a directory" : "not a regular file")
        }
        let size = Int(info.st_size)
        guard size > 0 else { throw .fileNotReadable(path: path, reason: "the file is empty") }
        guard size <= maximumSize else { throw .fileNotReadable(path: path, reason: "the file is larger than 2 GiB") }
        var failure: Int32 = 0
        let bytes = [UInt8](unsafeUninitializedCapacity: size) { buffer, count in
            var done = 0
            while done < size {
                let n = Glibc.read(fd, buffer.baseAddress! + done, size - done)
                if n < 0 {
                    if errno == EINTR { continue }
                    failure = errno
                    break
                }
                if n == 0 { break }
                done += n
            }
            count = done
        }
        if failure != 0 { throw .fileNotReadable(path: path, reason: String(cString: strerror(failure))) }
        guard bytes.count == size else { throw .fileNotReadable(path: path, reason: "the file shrank while it was read") }
        return bytes
    }
}
