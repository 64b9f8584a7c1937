import Foundation
import LiteVisionSystem

/// Timing helpers: medians of repeated runs, in milliseconds.
enum Measure {
    static func now() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) * 1000 + Double(time.tv_nsec) / 1_000_000
    }

    /// The median time of `repeats` runs of `body` after one warm-up run.
    static func medianMilliseconds(_ repeats: Int, _ body: () throws -> Void) rethrows -> Double {
        try body()
        var times: [Double] = []
        for _ in 0..<repeats {
            let start = now()
            try body()
            times.append(now() - start)
        }
        times.sort()
        return times[times.count / 2]
    }

    /// The peak resident memory of a command, in MB. Measured by a small python3 parent: the rusage of a
    /// child spawned straight from this (large) process would also count the memory it shared before exec.
    static func peakMegabytes(_ arguments: [String]) throws -> Double {
        let script = """
            import resource, subprocess, sys
            r = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            print(r.returncode, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
            """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", script] + arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        let fields = output.split(separator: " ").map { String($0.filter { !$0.isWhitespace }) }
        guard fields.count == 2, fields[0] == "0", let kilobytes = Double(fields[1]) else {
            throw BenchError("measuring memory of \(arguments.joined(separator: " ")) failed: \(output)")
        }
        return kilobytes / 1024
    }

    /// Runs a command, returning its wall time in ms and its exit status (its peak memory is not reliable
    /// here; see ``peakMegabytes(_:)``).
    /// `environment` adds to (or replaces in) this process's environment.
    static func process(
        _ arguments: [String], environment: [String: String] = [:]
    ) throws -> (milliseconds: Double, status: Int32) {
        var settings = ProcessInfo.processInfo.environment
        settings.merge(environment) { $1 }
        var envp: [UnsafeMutablePointer<CChar>?] = settings.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { for pointer in envp { free(pointer) } }
        let start = now()
        var pid: pid_t = 0
        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        defer { posix_spawn_file_actions_destroy(&actions) }
        let spawned = posix_spawn(&pid, arguments[0], &actions, nil, &argv, &envp)
        guard spawned == 0 else {
            throw BenchError("cannot start \(arguments[0]): \(errorDescription(spawned))")
        }
        var status: Int32 = 0
        waitpid(pid, &status, 0)
        return (now() - start, (status >> 8) & 0xff)
    }
}

struct BenchError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
