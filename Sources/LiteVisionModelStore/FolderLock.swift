import FoundationEssentials
import LiteVisionSystem

/// An exclusive lock on a model's folder in the cache (`flock` on its `.lock` file), shared by every process using
/// the cache. The folder is created when missing. Its holder may remove the whole folder (``release(removing:)``):
/// a process that was waiting then sees that the file it locked is gone and locks the folder made afresh.
struct FolderLock {
    let descriptor: Int32
    let folder: String

    /// The lock file of `folder`.
    static func path(in folder: String) -> String { folder + "/.lock" }

    /// Waits for the lock (another process may be downloading the same model), asking `isCancelled` every 0.1 s,
    /// so that a cancelled download does not wait for someone else's transfer to end. A symbolic link in place
    /// of the lock file is not followed.
    init(folder: String, isCancelled: () -> Bool) throws(TransferProblem) {
        self.folder = folder
        let path = Self.path(in: folder)
        var tries = 0
        while true {
            tries += 1
            do {
                try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            } catch {
                // A parent removed at that moment by a download that emptied it is made again on the next try.
                if tries < 5 { continue }
                throw TransferProblem(.fileSystem(path: folder, detail: "the folder could not be created (\(error))"))
            }
            let descriptor = open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0o644)
            if descriptor < 0 && errno == ENOENT && tries < 5 { continue }  // the folder was removed meanwhile
            guard descriptor >= 0 else {
                throw TransferProblem(.fileSystem(path: path, detail: errorDescription(errno)))
            }
            while flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
                let code = errno
                guard code == EWOULDBLOCK || code == EINTR else {
                    close(descriptor)
                    throw TransferProblem(.fileSystem(path: path, detail: errorDescription(code)))
                }
                if isCancelled() {
                    close(descriptor)
                    throw TransferProblem(.cancelled)
                }
                if code == EWOULDBLOCK { usleep(100_000) }
            }
            // The previous holder may have removed the folder: then this lock is on a file no longer there.
            var held = stat()
            var current = stat()
            if fstat(descriptor, &held) == 0, lstat(path, &current) == 0, held.st_ino == current.st_ino,
                held.st_dev == current.st_dev
            {
                self.descriptor = descriptor
                return
            }
            flock(descriptor, LOCK_UN)
            close(descriptor)
            if isCancelled() { throw TransferProblem(.cancelled) }
        }
    }

    /// Releases the lock; with `removing`, first deletes these files of the folder, then the lock file and the
    /// folder itself (left in place if anything else is in it).
    func release(removing files: [String]? = nil) {
        if let files {
            for name in files { unlink(folder + "/" + name) }
            unlink(Self.path(in: folder))
            rmdir(folder)
        }
        flock(descriptor, LOCK_UN)
        close(descriptor)
    }
}
