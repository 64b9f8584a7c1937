#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Checks that a path names a non-empty, readable regular file before FFmpeg is asked to open it, so that
/// the common mistakes get a precise ``VideoError/fileNotReadable(path:reason:)`` instead of FFmpeg's
/// generic "Invalid data found when processing input".
enum FileCheck {
    /// Throws unless `path` is a readable regular file of at least one byte.
    static func requireReadableFile(_ path: String) throws(VideoError) {
        guard !path.isEmpty else { throw .fileNotReadable(path: path, reason: "the path is empty") }
        var info = stat()
        guard stat(path, &info) == 0 else {
            let code = errno
            let reason = code == ENOENT ? "no such file" : String(cString: strerror(code))
            throw .fileNotReadable(path: path, reason: reason)
        }
        let type = info.st_mode & S_IFMT
        if type == S_IFDIR { throw .fileNotReadable(path: path, reason: "it is a directory, not a file") }
        guard type == S_IFREG else {
            throw .fileNotReadable(path: path, reason: "it is not a regular file (a device, pipe or socket)")
        }
        if info.st_size == 0 { throw .fileNotReadable(path: path, reason: "the file is empty (0 bytes)") }
        guard access(path, R_OK) == 0 else {
            throw .fileNotReadable(path: path, reason: String(cString: strerror(errno)))
        }
    }
}
