/// A file written under a temporary name beside its destination and moved over it only when complete, so
/// that no reader ever sees a half-written file and a failure leaves whatever was there before untouched.
///
/// ```swift
/// let file = try AtomicFile(path: "out.json")
/// try file.write(Array(text.utf8))
/// try file.commit()          // fsync, close, rename over out.json, fsync the folder
/// ```
/// Dropping the file without ``commit()`` (an error was thrown) deletes the temporary file. A destination
/// that exists and is not a regular file (a directory, device or FIFO, or a symbolic link to one) is refused
/// rather than replaced, as is an empty path or one naming a folder (``OutputPaths/fileProblem(_:)``). A
/// symbolic link to a regular file is replaced by the new file (the link's target is left as it was).
package final class AtomicFile {
    /// The destination.
    package let path: String
    /// The hidden temporary file beside the destination: `dir/.name.<pid>-<random>.partial`.
    package let temporaryPath: String
    /// The temporary file, open for writing; -1 when another library writes it (see `init(path:opened:)`).
    package private(set) var descriptor: Int32 = -1
    private var finished = false
    /// Whether ``publish()`` moved the temporary file to ``path`` already.
    package private(set) var published = false

    /// Prepares to write `path`. With `opened` (the default) the temporary file is created now, exclusively;
    /// without, only its name is chosen, for a library that creates the file itself (FFmpeg).
    package init(path: String, opened: Bool = true, permissions: mode_t = 0o644) throws(SystemError) {
        self.path = path
        if let problem = OutputPaths.fileProblem(path) { throw SystemError(.write, path: path, reason: problem) }
        temporaryPath = Self.temporaryName(beside: path)
        if opened {
            descriptor = open(temporaryPath, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, permissions)
            guard descriptor >= 0 else {
                finished = true
                throw .fromErrno(.write, path: path)
            }
        }
    }

    deinit { discard() }

    /// Appends `bytes` to the temporary file.
    package func write(_ bytes: UnsafeRawBufferPointer) throws(SystemError) {
        precondition(descriptor >= 0 && !finished, "write to an AtomicFile that is not open")
        try Platform.writeAll(bytes, to: descriptor, path: path)
    }

    /// Appends `bytes` to the temporary file.
    package func write(_ bytes: [UInt8]) throws(SystemError) {
        try bytes.withUnsafeBytes { buffer in Result { () throws(SystemError) in try write(buffer) } }.get()
    }

    /// Moves the file to ``path`` now, and keeps it open: what is written later goes straight to ``path``. For an
    /// output that grows while a stream is processed (one whole record per write), so that a process that is
    /// killed leaves everything written so far; ``commit()`` then only flushes and closes it.
    package func publish() throws(SystemError) {
        precondition(!finished && !published, "an AtomicFile is published once, before it is committed")
        guard rename(temporaryPath, path) == 0 else { throw .fromErrno(.write, path: path) }
        published = true
    }

    /// Flushes the temporary file to disk, closes it and renames it over ``path``. With `durable` false the two
    /// fsyncs are skipped: readers still see the old file or the whole new one, but after a power failure the file
    /// may be empty or missing, so only for files whose loss is harmless (a record that lets a download resume).
    package func commit(durable: Bool = true) throws(SystemError) {
        precondition(!finished, "an AtomicFile is committed once")
        if descriptor < 0 {
            descriptor = open(published ? path : temporaryPath, O_RDONLY | O_CLOEXEC)
            guard descriptor >= 0 else { throw .fromErrno(.write, path: path) }
        }
        if durable && fsync(descriptor) != 0 { throw .fromErrno(.write, path: path) }
        let closed = close(descriptor)
        descriptor = -1
        if closed != 0 { throw .fromErrno(.write, path: path) }
        guard published || rename(temporaryPath, path) == 0 else { throw .fromErrno(.write, path: path) }
        finished = true
        if durable { Self.syncFolder(containing: path) }
    }

    /// Deletes the temporary file unless it was committed (also done when the file is dropped).
    package func discard() {
        guard !finished else { return }
        finished = true
        if descriptor >= 0 { close(descriptor) }
        descriptor = -1
        if !published { unlink(temporaryPath) }  // a published file keeps what was written
    }

    /// Writes `bytes` to `path` atomically (durably unless `durable` is false: see ``commit(durable:)``).
    package static func write(_ bytes: [UInt8], to path: String, durable: Bool = true) throws(SystemError) {
        let file = try AtomicFile(path: path)
        try file.write(bytes)
        try file.commit(durable: durable)
    }

    /// The most bytes of the destination's name a temporary name repeats: with the dot before it and the
    /// `.<pid>-<random>.partial` after it (at most 31 bytes), the name stays within the 255 bytes a file name may have,
    /// so that a destination with a long legal name can be written.
    static let maximumRepeatedNameBytes = 224

    /// A fresh, hidden name in the same folder as `path` (so that the final rename is atomic): the destination's
    /// name, cut to ``maximumRepeatedNameBytes`` (at a character), after a dot, then the process and a random number.
    package static func temporaryName(beside path: String) -> String {
        let folder: Substring, name: Substring
        if let slash = path.lastIndex(of: "/") {
            folder = path[...slash]
            name = path[path.index(after: slash)...]
        } else {
            folder = ""
            name = Substring(path)
        }
        var kept = name.unicodeScalars.startIndex, bytes = 0
        for scalar in name.unicodeScalars {
            bytes += UTF8.width(scalar)
            guard bytes <= maximumRepeatedNameBytes else { break }
            kept = name.unicodeScalars.index(after: kept)
        }
        let random = String(UInt64.random(in: 0...UInt64.max), radix: 36)
        return "\(folder).\(Substring(name.unicodeScalars[..<kept])).\(getpid())-\(random).partial"
    }

    /// Makes a rename in the folder holding `path` durable: fsync of that folder (best effort).
    package static func syncFolder(containing path: String) {
        syncFolder(path.lastIndex(of: "/").map { path[..<$0].isEmpty ? "/" : String(path[..<$0]) } ?? ".")
    }

    /// fsync of `folder` (best effort): makes the renames in it durable.
    package static func syncFolder(_ folder: String) {
        let descriptor = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        _ = fsync(descriptor)
        close(descriptor)
    }
}
