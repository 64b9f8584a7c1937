/// Reads whole files into memory: one allocation of the file's size, no intermediate copies.
package enum FileContents {
    /// The largest file read by default (no model or photo LiteVision handles comes near it).
    package static let defaultMaximumSize = 2 << 30

    /// The bytes of the regular file at `path` (possibly none: callers decide whether empty is an error).
    ///
    /// The file is opened without blocking, so a FIFO or device is refused at once instead of waiting for a
    /// writer; directories, devices, FIFOs and sockets are refused with a reason that names them, as are files
    /// larger than `maximumSize` (checked before allocating) and files that shrink while they are read.
    package static func read(atPath path: String, maximumSize: Int = defaultMaximumSize) throws(SystemError) -> [UInt8]
    {
        try read(atPath: path, maximumSize: maximumSize, checkingIdentity: false).bytes
    }

    /// The bytes of the regular file at `path`, as ``read(atPath:maximumSize:)`` reads them, with the identity of
    /// the file they came from (taken from the open file before and after reading, and refused when the two
    /// differ: the file changed while it was read). A later open of the path can compare its identity with this
    /// one to be sure it sees the same bytes.
    package static func readVersioned(
        atPath path: String,
        maximumSize: Int = defaultMaximumSize
    ) throws(SystemError) -> (bytes: [UInt8], identity: FileIdentity?) {
        try read(atPath: path, maximumSize: maximumSize, checkingIdentity: true)
    }

    /// Reads the file; with `checkingIdentity`, also stats the open file after reading and refuses a change (one
    /// more system call, which photos read by the batch do without).
    private static func read(
        atPath path: String, maximumSize: Int, checkingIdentity: Bool
    ) throws(SystemError) -> (bytes: [UInt8], identity: FileIdentity?) {
        guard !path.isEmpty else { throw SystemError(.read, path: path, reason: "the path is empty") }
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else { throw .fromErrno(.read, path: path) }
        defer { close(descriptor) }
        let info = try regularFileStatus(descriptor, path: path)
        let size = Int(info.st_size)
        let identity = FileIdentity(info)
        // Opened non-blocking only so that a FIFO cannot hang the open; read a regular file normally.
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) & ~O_NONBLOCK)
        guard size <= maximumSize else {
            throw SystemError(.read, path: path, reason: "the file is larger than the \(maximumSize)-byte limit")
        }
        var failure: Int32 = 0
        let bytes = [UInt8](unsafeUninitializedCapacity: size) { buffer, initialized in
            initialized = 0
            while initialized < size {
                let count = Platform.read(descriptor, buffer.baseAddress! + initialized, size - initialized)
                if count > 0 {
                    initialized += count
                } else if count == 0 {
                    break
                } else if errno != EINTR {
                    failure = errno
                    break
                }
            }
        }
        if failure != 0 { throw .fromErrno(.read, path: path, code: failure) }
        guard bytes.count == size else {
            throw SystemError(
                .read, path: path, reason: "the file shrank from \(size) to \(bytes.count) bytes while it was read")
        }
        guard !checkingIdentity || FileIdentity(descriptor: descriptor) == identity else {
            throw SystemError(.read, path: path, reason: "the file changed while it was read")
        }
        return (bytes, identity)
    }

    /// The bytes of a file whose size is not known in advance (`/proc` and `/sys` files report 0), read until
    /// its end, refused past `maximumSize` bytes.
    package static func readToEnd(atPath path: String, maximumSize: Int) throws(SystemError) -> [UInt8] {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else { throw .fromErrno(.read, path: path) }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = chunk.withUnsafeMutableBytes { Platform.read(descriptor, $0.baseAddress!, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw .fromErrno(.read, path: path)
            }
            if count == 0 { return bytes }
            guard bytes.count + count <= maximumSize else {
                throw SystemError(.read, path: path, reason: "the file is larger than the \(maximumSize)-byte limit")
            }
            bytes.append(contentsOf: chunk.prefix(count))
        }
    }

    /// Checks, without opening it for long or blocking, that `path` is a readable regular file, and returns
    /// its size: for inputs that another library (FFmpeg) opens itself.
    package static func requireRegularFile(atPath path: String) throws(SystemError) -> Int {
        guard !path.isEmpty else { throw SystemError(.read, path: path, reason: "the path is empty") }
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else { throw .fromErrno(.read, path: path) }
        defer { close(descriptor) }
        return Int(try regularFileStatus(descriptor, path: path).st_size)
    }

    /// The status of the open file, or an error unless it is a regular file.
    private static func regularFileStatus(_ descriptor: Int32, path: String) throws(SystemError) -> stat {
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw .fromErrno(.read, path: path) }
        let kind = info.st_mode & S_IFMT
        guard kind == S_IFREG else {
            throw SystemError(
                .read, path: path,
                reason: kind == S_IFDIR ? "it is a directory" : "it is \(fileKindDescription(kind)), not a regular file"
            )
        }
        return info
    }
}
