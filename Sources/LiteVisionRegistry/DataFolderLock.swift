import FoundationEssentials
import LiteVisionRegistryStorage
import LiteVisionSystem

/// An exclusive `flock` on `<data>/registry.lock`, held while the registry is open.
final class DataFolderLock: Sendable {
    let descriptor: Int32

    init(_ dataFolder: String) throws(RegistryError) {
        let path = (dataFolder.hasSuffix("/") ? dataFolder : dataFolder + "/") + "registry.lock"
        descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, DataFolderPermissions.fileMode)
        guard descriptor >= 0 else { throw .storage("cannot open \(path): \(errorDescription(errno))") }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            let code = errno
            close(descriptor)
            throw code == EWOULDBLOCK
                ? .storage("another registry server is using \(dataFolder) (it holds registry.lock)")
                : .storage("cannot lock \(path): \(errorDescription(code))")
        }
    }

    /// Unlocks before closing: a process spawned by another thread at that moment holds a copy of the
    /// descriptor until it execs (`O_CLOEXEC` closes it only then), and a `flock` lives until the last copy
    /// closes; an explicit unlock releases it at once, so the folder can be reopened right away.
    deinit {
        flock(descriptor, LOCK_UN)
        close(descriptor)
    }
}
