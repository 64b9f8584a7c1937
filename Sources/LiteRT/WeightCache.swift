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
///   replaced or loaded by another runtime build gets a new entry, never a stale one. The identity is taken from
///   the very file descriptor the runtime loads the model from.
/// - The folder is used only if it is a real directory owned by this user that no one else can write (it is
///   created with mode 0700); otherwise there is no cache and nothing else changes.
/// - An entry is written under a name of its own (`….partial`, per process), checked to be complete, then linked
///   into place, so a reader never maps a file that is being written, and concurrent processes never write the same
///   file. A compile that fails leaves nothing behind.
/// - The folder is bounded: at most ``maximumEntries`` entries are kept (oldest removed first) and abandoned
///   `.partial` files older than an hour are removed.
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
        /// The file XNNPACK is given.
        package let path: String
        /// Where a newly written entry goes when complete; nil when `path` is an existing entry.
        let finalPath: String?
    }

    /// How the compile of a model loaded from the file `model` with `runtime` uses the cache: the existing entry,
    /// or a new file to write. Nil when the cache cannot be used (the folder is unsafe or cannot be made, or its
    /// path could not be passed to the runtime).
    package func use(model: FileIdentity, runtime: FileIdentity) -> Use? {
        // The path travels inside TOML text: refuse the characters that would need escaping.
        guard !folder.isEmpty, !folder.utf8.contains(where: { $0 < 0x20 || $0 == 0x22 || $0 == 0x5C }),
            prepareFolder()
        else { return nil }
        let entry = folder + "/" + model.token + "_" + runtime.token + ".xnnpack"
        if Self.isCompleteEntry(entry) { return Use(path: entry, finalPath: nil) }
        let partial = entry + "." + String(getpid()) + "-" + String(UInt64.random(in: 0...UInt64.max), radix: 16)
        return Use(path: partial + ".partial", finalPath: entry)
    }

    /// After a successful compile: a newly written entry is put in place if complete, else removed.
    package func finish(_ use: Use) {
        guard let finalPath = use.finalPath else { return }
        defer { unlink(use.path) }
        guard Self.isCompleteEntry(use.path) else { return }
        // link(2), not rename(2): when another process put its entry in place first, keep that one.
        if link(use.path, finalPath) == 0 { trim() }
    }

    /// After a failed compile: a file being written is removed.
    package func abandon(_ use: Use) {
        if use.finalPath != nil { unlink(use.path) }
    }

    /// Creates the folder (mode 0700) if needed and checks it: a directory, not a symbolic link, owned by this
    /// user, writable by no one else.
    private func prepareFolder() -> Bool {
        var info = stat()
        if lstat(folder, &info) != 0 {
            let parent = Subprocess.parentDirectory(folder)
            try? FileManager.default.createDirectory(atPath: parent, withIntermediateDirectories: true)
            guard mkdir(folder, 0o700) == 0 || errno == EEXIST, lstat(folder, &info) == 0 else { return false }
        }
        return (info.st_mode & S_IFMT) == S_IFDIR && info.st_uid == geteuid() && (info.st_mode & 0o022) == 0
    }

    /// Whether `path` is a regular file of this user whose XNNPACK header says the build finished: XNNPACK writes
    /// a header with version 0 first and the real version (never 0) last.
    private static func isCompleteEntry(_ path: String) -> Bool {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, info.st_uid == geteuid(),
            info.st_size >= 64
        else { return false }
        var version: UInt64 = 0
        guard pread(descriptor, &version, 8, 0) == 8 else { return false }
        return version != 0
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
