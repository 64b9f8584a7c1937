import Crypto
import LiteVisionModelStore
import LiteVisionSystem

/// An upload being received: a private file (`<folder>/.incoming-<pid>-<random>`), the bytes so far and their
/// running SHA-256. The bytes of a request body go to the file as they arrive, never whole into memory. The file
/// is deleted when the upload is dropped, unless a store took it (``markTaken()``).
///
/// Not `Sendable`: one request writes it, then hands it to the registry, on one task at a time.
package final class IncomingBlob {
    /// The file.
    package let path: String
    /// Its open descriptor (read and write).
    package let descriptor: Int32
    package private(set) var size = 0
    private var hash = SHA256()
    private var taken = false

    private init(path: String, descriptor: Int32) {
        self.path = path
        self.descriptor = descriptor
    }

    /// A new, empty upload file in `folder`.
    package static func create(in folder: String) throws(SystemError) -> IncomingBlob {
        let path = folder + "/.incoming-\(getpid())-" + String(UInt64.random(in: 0...UInt64.max), radix: 36)
        let descriptor = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw .fromErrno(.write, path: path) }
        return IncomingBlob(path: path, descriptor: descriptor)
    }

    deinit {
        close(descriptor)
        if !taken { unlink(path) }
    }

    /// Appends `bytes`.
    package func write(_ bytes: UnsafeRawBufferPointer) throws(SystemError) {
        try Platform.writeAll(bytes, to: descriptor, path: path)
        hash.update(bufferPointer: bytes)
        size += bytes.count
    }

    /// The SHA-256 of the bytes written so far, in hexadecimal.
    package var sha256: String { SHA256Digest.hex(hash.finalize()) }

    /// Up to `count` bytes from `offset` into `buffer` (which must hold `count` bytes); fewer only at the end of the
    /// file.
    package func read(
        at offset: Int, count: Int, into buffer: UnsafeMutableRawBufferPointer
    ) throws(SystemError)
        -> Int
    {
        precondition(count <= buffer.count)
        var done = 0
        while done < count {
            let got = pread(descriptor, buffer.baseAddress! + done, count - done, off_t(offset + done))
            if got < 0 && errno == EINTR { continue }
            if got < 0 { throw .fromErrno(.read, path: path) }
            if got == 0 { break }
            done += got
        }
        return done
    }

    /// The file now belongs to a store (it was renamed to its content address): it is no longer deleted when the
    /// upload is dropped.
    package func markTaken() { taken = true }
}
