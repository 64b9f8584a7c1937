import Foundation

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

    /// Runs a command, returning its wall time in ms and its peak resident memory in MB.
    static func process(_ arguments: [String]) throws -> (milliseconds: Double, peakMegabytes: Double, status: Int32) {
        let start = now()
        var pid: pid_t = 0
        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        defer { posix_spawn_file_actions_destroy(&actions) }
        let spawned = posix_spawn(&pid, arguments[0], &actions, nil, &argv, environ)
        guard spawned == 0 else { throw BenchError("cannot start \(arguments[0]): \(String(cString: strerror(spawned)))") }
        var status: Int32 = 0
        var usage = rusage()
        wait4(pid, &status, 0, &usage)
        let elapsed = now() - start
        return (elapsed, Double(usage.ru_maxrss) / 1024, (status >> 8) & 0xff)
    }
}

struct BenchError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
