/// What tells one version of a file from another without reading it: device, inode, size, and the modification
/// and status-change times in nanoseconds. Writing the file changes the modification time; replacing it changes the
/// inode; and the status-change time cannot be set back by `touch` or any other call. Two caveats: file systems
/// keep times at their own granularity (whole seconds on some), so a same-size rewrite within one tick keeps the
/// identity (users wait until a change has settled, see `WeightCache`), and a clock set back defeats it.
package struct FileIdentity: Sendable, Hashable {
    /// The device holding the file.
    package let device: UInt64
    /// The file's inode number on that device.
    package let inode: UInt64
    /// The size in bytes.
    package let size: Int64
    /// The last modification time, in nanoseconds since 1970.
    package let modified: Int64
    /// The last status change (any write, rename, chmod), in nanoseconds since 1970.
    package let changed: Int64

    /// The identity of an open file.
    package init?(descriptor: Int32) {
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { return nil }
        self.init(info)
    }

    /// The identity of the file at `path` (following symbolic links), or nil when it cannot be examined.
    package init?(path: String) {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        self.init(info)
    }

    /// The identity of the file `info` describes (from `stat` or `fstat`).
    package init(_ info: stat) {
        device = UInt64(info.st_dev)
        inode = UInt64(info.st_ino)
        size = Int64(info.st_size)
        modified = Int64(info.st_mtim.tv_sec) &* 1_000_000_000 &+ Int64(info.st_mtim.tv_nsec)
        changed = Int64(info.st_ctim.tv_sec) &* 1_000_000_000 &+ Int64(info.st_ctim.tv_nsec)
    }

    /// The identity as a file-name-safe token (digits, letters and dashes).
    package var token: String {
        "\(String(device, radix: 16))-\(String(inode, radix: 16))-\(size)-\(modified)-\(changed)"
    }
}
