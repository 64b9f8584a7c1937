import Foundation

/// The open file descriptors and threads of the current process, read from `/proc/self`: a test takes one before
/// and one after playing a stream to show that a video source leaks neither.
public struct ProcessResources: Equatable, Sendable, CustomStringConvertible {
    /// The number of open file descriptors (the entries of `/proc/self/fd`, without the one used to list them).
    public let fileDescriptors: Int
    /// The number of threads (the entries of `/proc/self/task`).
    public let threads: Int

    /// The resources of the current process now.
    public static func current() -> ProcessResources {
        ProcessResources(fileDescriptors: entries("/proc/self/fd").count, threads: entries("/proc/self/task").count)
    }

    /// What each open file descriptor refers to (`3 -> socket:[123]`, `4 -> /tmp/x.mp4`), for a message that
    /// shows which ones leaked.
    public static func openFileDescriptors() -> [String] {
        entries("/proc/self/fd").sorted { (Int($0) ?? 0) < (Int($1) ?? 0) }.map { name in
            let target = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(name)")) ?? "?"
            return "\(name) -> \(target)"
        }
    }

    /// `N file descriptors, M threads`.
    public var description: String { "\(fileDescriptors) file descriptors, \(threads) threads" }

    /// The names in a folder of /proc, leaving out the descriptor of the listing itself.
    private static func entries(_ path: String) -> [String] {
        guard let directory = opendir(path) else { return [] }
        defer { closedir(directory) }
        let own = String(dirfd(directory))
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) {
                String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name == "." || name == ".." || (path.hasSuffix("/fd") && name == own) { continue }
            names.append(name)
        }
        return names
    }
}
