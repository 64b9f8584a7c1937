import NIOCore

/// Where a registry keeps its model files, named by their SHA-256 (content-addressed: immutable, stored once).
///
/// Two implementations: files in the data folder (the embedded default) and chunks in PostgreSQL (reached by
/// every replica without a shared disk). An upload is first received into an ``IncomingBlob`` (a local file,
/// never whole in memory), checked, then ``store(_:)``d: a blob is visible under its address only once all of its
/// bytes are there, so a process killed during an upload never leaves part of a file that looks complete.
package protocol RegistryBlobStore: Sendable {
    /// A new upload to write, check, then ``store(_:)``.
    func makeUpload() throws(RegistryError) -> IncomingBlob

    /// Stores the complete `upload` under its SHA-256 (nothing to do when that content is already stored). The
    /// blob stays at least until ``release(_:recorded:)`` is called for it, even if no version refers to it yet.
    func store(_ upload: IncomingBlob) async throws(RegistryError) -> StoredBlob

    /// Ends what ``store(_:)`` promised for `blob`: when its version was not `recorded` and nothing else refers to
    /// it, it is removed.
    func release(_ blob: StoredBlob, recorded: Bool) async

    /// The size of the blob `sha256`, or nil when it is not stored.
    func size(of sha256: String) async throws(RegistryError) -> Int?

    /// Reads the bytes `range` of the blob `sha256` (`size` bytes long, as ``size(of:)`` said) and hands them to
    /// `write` in order, a piece at a time (never the whole blob at once).
    func read(
        _ sha256: String, size: Int, range: ClosedRange<Int>, into write: (ByteBuffer) async throws -> Void
    ) async throws

    /// Removes the blob `sha256` if no version refers to it and no ``store(_:)`` of it is awaiting its
    /// ``release(_:recorded:)``; keeps it otherwise (a removal that cannot be done now is left to
    /// ``removeOrphans(keeping:)``).
    func removeIfUnreferenced(_ sha256: String) async

    /// Removes every blob not in `referenced` (and what interrupted uploads left behind); returns how many. Run
    /// when a server starts.
    @discardableResult
    func removeOrphans(keeping referenced: Set<String>) async -> Int
}
