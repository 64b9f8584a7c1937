import FoundationEssentials
import LiteVisionSystem

/// Finds libLiteRt.so: the discovery order of ``Runtime/load(libraryPath:)``.
enum LibraryLocator {
    static let libraryName = "libLiteRt.so"

    /// The candidate paths, in order, each with a label for the error message.
    static func candidates(explicitPath: String?) -> [(place: String, path: String)] {
        var list: [(String, String)] = []
        if let explicitPath { list.append(("the path given", explicitPath)) }
        if let env = ProcessInfo.processInfo.environment["LITERT_LIBRARY"], !env.isEmpty {
            list.append(("LITERT_LIBRARY", env))
        }
        // A bare name lets the dynamic loader search LD_LIBRARY_PATH and the ld.so cache.
        list.append(("the dynamic loader's search path (LD_LIBRARY_PATH, ld.so cache)", libraryName))
        if let exe = Subprocess.executableDirectory() {
            list.append(("the executable's folder", exe + "/" + libraryName))
        }
        if let cached = cachedPath() {
            list.append(("the path remembered in \(cacheFile)", cached))
        }
        return list
    }

    /// Asks python3 where the `ai_edge_litert` package lives (slow, ~150 ms: tried last).
    static func pythonPackagePath() -> (path: String?, reason: String) {
        let script = "import ai_edge_litert, os; print(os.path.dirname(ai_edge_litert.__file__))"
        guard let (status, output) = Subprocess.run(["/usr/bin/env", "python3", "-c", script]) else {
            return (nil, "python3 could not be started")
        }
        let dir = trimmed(output)
        guard status == 0, !dir.isEmpty else { return (nil, "python3 has no ai_edge_litert package") }
        return (dir + "/" + libraryName, "")
    }

    static func trimmed(_ text: String) -> String {
        String(text.drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
    }

    /// Where a path found through python3 is remembered, so later processes start fast.
    static var cacheFile: String {
        let env = ProcessInfo.processInfo.environment
        let base =
            env["XDG_CACHE_HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? (env["HOME"].map { $0 + "/.cache" } ?? (env["TMPDIR"] ?? "/tmp"))
        return base + "/litevision/runtime-path"
    }

    static func cachedPath() -> String? {
        guard let data = try? FileContents.read(atPath: cacheFile, maximumSize: 1 << 16) else { return nil }
        let path = trimmed(String(decoding: data, as: UTF8.self))
        return path.isEmpty ? nil : path
    }

    static func remember(_ path: String) {
        let file = cacheFile
        try? FileManager.default.createDirectory(
            atPath: Subprocess.parentDirectory(file), withIntermediateDirectories: true)
        // Atomically, so a concurrent reader never sees half a path; a failure only means it is not remembered.
        try? AtomicFile.write(Array(path.utf8), to: file)
    }
}
