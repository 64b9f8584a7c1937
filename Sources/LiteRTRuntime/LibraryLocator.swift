import Foundation

/// Finds libLiteRt.so: the discovery order of ``LiteRtRuntime/load(libraryPath:)``.
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
        if let exe = executableDirectory() {
            list.append(("the executable's folder", exe + "/" + libraryName))
        }
        if let cached = cachedPath() {
            list.append(("the path remembered in \(cacheFile)", cached))
        }
        return list
    }

    /// Asks python3 where the `ai_edge_litert` package lives (slow, ~150 ms: tried last).
    static func pythonPackagePath() -> (path: String?, reason: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c",
                             "import ai_edge_litert, os; print(os.path.dirname(ai_edge_litert.__file__))"]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            return (nil, "python3 could not be started (\(error))")
        }
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0,
              let dir = String(data: data, encoding: .utf8)?.trimmingCharacters(in: .whitespacesAndNewlines),
              !dir.isEmpty else {
            return (nil, "python3 has no ai_edge_litert package")
        }
        return (dir + "/" + libraryName, "")
    }

    static func executableDirectory() -> String? {
        guard let exe = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") else {
            return nil
        }
        return (exe as NSString).deletingLastPathComponent
    }

    /// Where a path found through python3 is remembered, so later processes start fast.
    static var cacheFile: String {
        let env = ProcessInfo.processInfo.environment
        let base = env["XDG_CACHE_HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? (env["HOME"].map { $0 + "/.cache" } ?? NSTemporaryDirectory())
        return base + "/litevision/runtime-path"
    }

    static func cachedPath() -> String? {
        guard let text = try? String(contentsOfFile: cacheFile, encoding: .utf8) else { return nil }
        let path = text.trimmingCharacters(in: .whitespacesAndNewlines)
        return path.isEmpty ? nil : path
    }

    static func remember(_ path: String) {
        let file = cacheFile
        try? FileManager.default.createDirectory(atPath: (file as NSString).deletingLastPathComponent,
                                                 withIntermediateDirectories: true)
        // Write to a temporary file and rename, so a concurrent reader never sees half a path.
        let temporary = file + ".\(getpid()).tmp"
        if (try? path.write(toFile: temporary, atomically: false, encoding: .utf8)) != nil {
            rename(temporary, file)
        }
    }
}
