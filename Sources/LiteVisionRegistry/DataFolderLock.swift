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

    deinit { close(descriptor) }
}
