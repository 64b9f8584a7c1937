/// Running a helper program (python3 to find the runtime, nmcli to ask NetworkManager) and reading its output;
/// where the running program is (to find the programs installed beside it).
package enum Subprocess {
    /// The most standard output kept.
    static let outputLimit = 1 << 20

    /// Runs `arguments[0]` (a path) with the rest as its arguments and returns its exit status (-1 when a signal
    /// ended it) and standard output (at most 1 MiB; standard error is discarded); nil when it cannot be started.
    package static func run(_ arguments: [String]) -> (status: Int32, output: String)? {
        guard !arguments.isEmpty else { return nil }
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { return nil }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, fds[1], STDOUT_FILENO)
        posix_spawn_file_actions_addclose(&actions, fds[0])
        posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, "/dev/null", O_WRONLY, 0)
        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, arguments[0], &actions, nil, &argv, environ)
        close(fds[1])
        guard spawned == 0 else {
            close(fds[0])
            return nil
        }
        var output: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = Platform.read(fds[0], &chunk, chunk.count)
            if count < 0 && errno == EINTR { continue }
            if count <= 0 { break }
            output += chunk[0..<min(count, max(0, outputLimit - output.count))]
        }
        close(fds[0])
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let exited = (status & 0x7f) == 0
        return (exited ? (status >> 8) & 0xff : -1, String(decoding: output, as: UTF8.self))
    }

    /// The standard output of a program that exits with status 0, else nil.
    package static func output(of program: String, _ arguments: [String]) -> String? {
        guard let (status, output) = run([program] + arguments), status == 0 else { return nil }
        return output
    }

    /// The folder of the running executable (`/proc/self/exe`), or nil when it cannot be read.
    package static func executableDirectory() -> String? {
        var buffer = [CChar](repeating: 0, count: 4096)
        let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard count > 0 else { return nil }
        let path = String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return parentDirectory(path)
    }

    /// The folder part of `path` (`.` when it has none).
    package static func parentDirectory(_ path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }
}
