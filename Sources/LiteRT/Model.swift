import CLiteRt
import FoundationEssentials
import LiteVisionSystem

/// A TFLite model loaded into the runtime (from a file, memory-mapped, or from bytes in memory).
///
/// A model can be compiled any number of times (``CompiledModel``); it stays alive while any of its
/// compiled models does.
package final class Model: @unchecked Sendable {
    // @unchecked: immutable after init; the runtime only reads a loaded model, and compilation from it is
    // serialized by the runtime's creation lock.

    /// The runtime the model was loaded into.
    package let runtime: Runtime
    let handle: LiteRtModel
    /// Memory holding the model bytes when loaded from memory (the runtime requires it to outlive the model).
    private let ownedBytes: UnsafeMutableRawPointer?
    /// The identity of the file the model was loaded from (nil when loaded from memory): what the weight cache
    /// keys on.
    package let fileIdentity: FileIdentity?

    /// Loads the model file at `path` (memory-mapped by the runtime).
    ///
    /// The file is opened here, checked to be a regular file (a FIFO would block the runtime forever), and the
    /// runtime loads that very open file, so ``fileIdentity`` describes the bytes loaded even if the path is
    /// replaced meanwhile.
    ///
    /// When `expectedIdentity` is given (the identity of the file whose bytes were read and verified before), the
    /// open file must still be that file, so that the runtime never maps bytes nobody checked.
    package init(runtime: Runtime, path: String, expectedIdentity: FileIdentity? = nil) throws(LiteRTError) {
        self.runtime = runtime
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else {
            throw LiteRTError(status: 500, operation: "load the model \(path): \(errorDescription(errno))")
        }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else {
            throw LiteRTError(status: 500, operation: "load the model \(path): it is not a regular file")
        }
        if let expectedIdentity, FileIdentity(descriptor: descriptor) != expectedIdentity {
            throw LiteRTError(
                status: 500,
                operation: "load the model \(path): the file changed after it was read and verified (load it again)")
        }
        // The runtime maps the open file, so the identity below describes the bytes loaded; without /proc it is
        // given the path (and the weight cache, which keys on that identity, is not used).
        let viaDescriptor = access("/proc/self/fd", F_OK) == 0
        var handle: LiteRtModel?
        runtime.creationLock.lock()
        let status = runtime.api.pointee.CreateModelFromFile(
            runtime.environment, viaDescriptor ? "/proc/self/fd/\(descriptor)" : path, &handle)
        runtime.creationLock.unlock()
        try check(status, "load the model \(path)")
        guard let handle else { throw LiteRTError(status: 9, operation: "load the model \(path)") }
        self.handle = handle
        self.ownedBytes = nil
        self.fileIdentity = viaDescriptor ? FileIdentity(descriptor: descriptor) : nil
    }

    /// Loads a model from its bytes. The bytes are copied once into memory the model owns.
    package init(runtime: Runtime, bytes: UnsafeRawBufferPointer) throws(LiteRTError) {
        self.runtime = runtime
        guard let base = bytes.baseAddress, bytes.count > 0 else {
            throw LiteRTError(status: 1, operation: "load a model from an empty buffer")
        }
        let copy = UnsafeMutableRawPointer.allocate(byteCount: bytes.count, alignment: 64)
        copy.copyMemory(from: base, byteCount: bytes.count)
        var handle: LiteRtModel?
        runtime.creationLock.lock()
        let status = runtime.api.pointee.CreateModelFromBuffer(runtime.environment, copy, bytes.count, &handle)
        runtime.creationLock.unlock()
        guard status == 0, let handle else {
            copy.deallocate()
            throw LiteRTError(status: status == 0 ? 9 : status, operation: "load a model from memory")
        }
        self.handle = handle
        self.ownedBytes = copy
        self.fileIdentity = nil
    }

    deinit {
        runtime.api.pointee.DestroyModel(handle)
        ownedBytes?.deallocate()
    }
}
