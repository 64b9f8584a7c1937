/// A failed file-system operation: which file, what was being done, and why, in words that fit inside a
/// sentence ("no such file", "it is a directory", "permission denied").
///
/// Each LiteVision module turns it into its own error type (``fileNotReadable``-style cases), so users see
/// one wording for the same problem whichever feature met it.
package struct SystemError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What was being done to the file.
    package enum Operation: Sendable, Equatable {
        case read
        case write
    }

    package var operation: Operation
    package var path: String
    package var reason: String
    /// The C library's error number, when the C library reported the failure.
    package var code: Int32?

    package init(_ operation: Operation, path: String, reason: String, code: Int32? = nil) {
        self.operation = operation
        self.path = path
        self.reason = reason
        self.code = code
    }

    /// The failure the C library reported in `errno` (or `code`).
    package static func fromErrno(_ operation: Operation, path: String, code: Int32 = errno) -> SystemError {
        let reason = operation == .write && code == ENOENT ? "its folder does not exist" : errorDescription(code)
        return SystemError(operation, path: path, reason: reason, code: code)
    }

    package var description: String {
        "Cannot \(operation == .read ? "read" : "write") \(path): \(reason)."
    }
}

/// The C library's description of an `errno` value, starting in lower case so that it reads inside a
/// sentence; "no such file" for `ENOENT`.
package func errorDescription(_ code: Int32) -> String {
    if code == ENOENT { return "no such file" }
    guard let message = strerror(code) else { return "error \(code)" }
    let text = String(cString: message)
    guard let first = text.first else { return "error \(code)" }
    return first.lowercased() + text.dropFirst()
}

/// What kind of file `mode` describes, for messages: "a directory", "a FIFO (named pipe)", "a character
/// device", "a regular file"...
package func fileKindDescription(_ mode: mode_t) -> String {
    switch mode & S_IFMT {
    case S_IFDIR: "a directory"
    case S_IFIFO: "a FIFO (named pipe)"
    case S_IFCHR: "a character device"
    case S_IFBLK: "a block device"
    case S_IFSOCK: "a socket"
    case S_IFLNK: "a symbolic link"
    case S_IFREG: "a regular file"
    default: "not a regular file"
    }
}

extension String {
    /// The text of a C character buffer up to its first NUL (or its end), as C libraries fill error buffers.
    package init(nulTerminated buffer: some Collection<CChar>) {
        self.init(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
