import FoundationEssentials
import LiteVisionSystem

/// A folder where XNNPACK keeps the packed weights of model files between processes.
///
/// Compiling a model for the CPU rearranges ("packs") its weights for XNNPACK's kernels; for the models LiteVision
/// ships that is about 5 ms of CPU time, paid again by every new process. With a weight cache the first compile of a
/// model file writes the packed weights to a file, and later compiles map that file instead.
///
/// Safety, since XNNPACK trusts a cache file's contents:
/// - Entries are named by the model file's ``FileIdentity`` and the runtime library's: a model that is edited,
///   replaced or loaded by another runtime build gets a new entry. The identity is taken from the very file
///   descriptor the runtime loads the model from. A model file changed less than two seconds ago is not cached
///   (file times can be coarse, so a quick same-size rewrite could otherwise keep its identity).
/// - The folder is used only if it is a real directory owned by this user and open to no one else (it is
///   created with mode 0700); otherwise there is no cache and nothing else changes. Entries are mode 0600.
/// - An existing entry is opened and checked here (a finished header whose buffer list ends the file) and XNNPACK
///   maps that open file (`/proc/self/fd/N`), never a path that could change in between. A new entry is written
///   under a name of its own (`….partial`, per process), checked, then linked into place (renamed over a damaged
///   one), so a reader never maps a file that is being written and processes never write the same file. A compile
///   that fails leaves nothing behind.
/// - The folder is bounded: at most ``maximumEntries`` entries are kept (the least recently used removed first)
///   and abandoned `.partial` files older than an hour are removed.
/// - What it does not catch: bytes of an entry changed behind its back (by its owner) with the header intact. The
///   folder is the user's own, like the models themselves.
package struct WeightCache: Sendable {
    /// The folder holding the entries.
    package let folder: String

    /// Entries kept at most; older ones are removed when a new one is added.
    package static let maximumEntries = 64

    /// A cache in `folder` (created when missing).
    package init(folder: String) {
        self.folder = folder
    }

    /// The cache LiteVision uses by default: the folder named by `LITEVISION_WEIGHT_CACHE` (empty or `off`
    /// disables the cache), else `$XDG_CACHE_HOME/litevision/xnnpack`, else `~/.cache/litevision/xnnpack`.
    package static var standard: WeightCache? {
        let environment = ProcessInfo.processInfo.environment
        if let configured = environment["LITEVISION_WEIGHT_CACHE"] {
            return configured.isEmpty || configured == "off" ? nil : WeightCache(folder: configured)
        }
        let base =
            environment["XDG_CACHE_HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? environment["HOME"].flatMap { $0.isEmpty ? nil : $0 + "/.cache" }
        return base.map { WeightCache(folder: $0 + "/litevision/xnnpack") }
    }

    /// What one compile does with the cache.
    package struct Use: Sendable {
        /// The file XNNPACK is given: `/proc/self/fd/N` of an existing entry opened and checked here (so the checked
        /// file is the one mapped, even if the entry is removed meanwhile), or a new `.partial` file to write.
        package let path: String
        /// Where a newly written entry goes when complete; nil when `path` is an existing entry.
        let finalPath: String?
        /// Whether a damaged entry is in place at `finalPath` (the new one is renamed over it).
        let replacesDamagedEntry: Bool
        /// The open existing entry (closed by ``WeightCache/finish(_:)`` or ``WeightCache/abandon(_:)``), or -1.
        let descriptor: Int32
    }

    /// How long after a change a model file is not cached: file times are coarse on some file systems (whole
    /// seconds on ext4 with small inodes, FAT, some NFS), so a rewrite of the same size within one tick could keep
    /// the identity. Git's "racy" rule, for the same reason.
    static let settlingNanoseconds: Int64 = 2_000_000_000

    /// How the compile of a model loaded from the file `model` with `runtime` uses the cache: the existing entry,
    /// or a new file to write. Nil when the cache cannot be used (the folder is unsafe or cannot be made, its path
    /// could not be passed to the runtime, /proc is missing, or the model file changed in the last two seconds).
    package func use(model: FileIdentity, runtime: FileIdentity) -> Use? {
        // The path travels inside TOML text: refuse the characters that would need escaping.
        guard !folder.isEmpty, !folder.utf8.contains(where: { $0 < 0x20 || $0 == 0x22 || $0 == 0x5C || $0 == 0x7F }),
            access("/proc/self/fd", F_OK) == 0, prepareFolder()
        else { return nil }
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        let nowNanoseconds = Int64(now.tv_sec) &* 1_000_000_000 &+ Int64(now.tv_nsec)
        guard nowNanoseconds - model.changed >= Self.settlingNanoseconds else { return nil }
        let entry = folder + "/" + model.token + "_" + runtime.token + ".xnnpack"
        var damaged = false
        let descriptor = open(entry, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK)
        if descriptor >= 0 {
            if Self.isCompleteEntry(descriptor) {
                futimens(descriptor, nil)  // last use: the oldest-used entries are the ones trimmed
                return Use(
                    path: "/proc/self/fd/\(descriptor)", finalPath: nil, replacesDamagedEntry: false,
                    descriptor: descriptor)
            }
            close(descriptor)
            damaged = true
        }
        let partial = entry + "." + String(getpid()) + "-" + String(UInt64.random(in: 0...UInt64.max), radix: 16)
        return Use(path: partial + ".partial", finalPath: entry, replacesDamagedEntry: damaged, descriptor: -1)
    }

    /// After a successful compile: a newly written entry is put in place if complete, else removed.
    package func finish(_ use: Use) {
        if use.descriptor >= 0 { close(use.descriptor) }
        guard let finalPath = use.finalPath else { return }
        defer { unlink(use.path) }
        let descriptor = open(use.path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK)
        guard descriptor >= 0 else { return }
        defer { close(descriptor) }
        // XNNPACK creates the file readable by all; the packed weights are as private as the model.
        guard Self.isCompleteEntry(descriptor), fchmod(descriptor, 0o600) == 0 else { return }
        if use.replacesDamagedEntry {
            rename(use.path, finalPath)
        } else if link(use.path, finalPath) != 0 && errno != EEXIST {
            // A file system without hard links: rename (an entry another process put in place meanwhile has the
            // same content).
            rename(use.path, finalPath)
        }
        trim()
    }

    /// After a failed compile: the entry is closed, a file being written removed.
    package func abandon(_ use: Use) {
        if use.descriptor >= 0 { close(use.descriptor) }
        if use.finalPath != nil { unlink(use.path) }
    }

    /// Creates the folder (mode 0700) if needed and checks it: a directory, not a symbolic link, owned by this
    /// user, open to no one else (entries hold the packed weights of models that may be private).
    private func prepareFolder() -> Bool {
        var info = stat()
        if lstat(folder, &info) != 0 {
            let parent = Subprocess.parentDirectory(folder)
            try? FileManager.default.createDirectory(atPath: parent, withIntermediateDirectories: true)
            guard mkdir(folder, 0o700) == 0 || errno == EEXIST, lstat(folder, &info) == 0 else { return false }
        }
        return (info.st_mode & S_IFMT) == S_IFDIR && info.st_uid == geteuid() && (info.st_mode & 0o077) == 0
    }

    /// Whether the open file is a regular file of this user holding a finished XNNPACK cache: XNNPACK writes a
    /// header with version 0 first and, when the build is complete, the real version (never 0) followed by the
    /// offset and size of its buffer list, which ends the file (the layout of the pinned runtime, 2.3.0). A file
    /// that fails this is never given to XNNPACK, which would rebuild it in place.
    private static func isCompleteEntry(_ descriptor: Int32) -> Bool {
        var info = stat()
        guard fstat(descriptor, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, info.st_uid == geteuid(),
            info.st_size >= 64
        else { return false }
        var header = (UInt64(0), UInt64(0), UInt64(0))
        guard pread(descriptor, &header, 24, 0) == 24 else { return false }
        let (version, listOffset, listSize) = (
            UInt64(littleEndian: header.0), UInt64(littleEndian: header.1), UInt64(littleEndian: header.2)
        )
        let (end, overflow) = listOffset.addingReportingOverflow(listSize)
        return version != 0 && listOffset >= 24 && listSize > 0 && !overflow && end == UInt64(info.st_size)
    }

    /// Keeps the folder bounded: removes `.partial` files older than an hour, and the oldest entries beyond
    /// ``maximumEntries``.
    private func trim() {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return }
        let now = time(nil)
        var entries: [(modified: Int, path: String)] = []
        for name in names {
            let path = folder + "/" + name
            var info = stat()
            guard lstat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { continue }
            if name.hasSuffix(".partial") {
                if now - info.st_mtim.tv_sec > 3600 { unlink(path) }
            } else if name.hasSuffix(".xnnpack") {
                entries.append((info.st_mtim.tv_sec, path))
            }
        }
        guard entries.count > Self.maximumEntries else { return }
        for entry in entries.sorted(by: { $0.modified < $1.modified }).prefix(entries.count - Self.maximumEntries) {
            unlink(entry.path)
        }
    }
}
