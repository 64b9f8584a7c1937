import ArgumentParser
import LiteVisionSystem

/// The programs installed next to `litevision` that run some of its commands: `litevision-media` (video and
/// drawing: FFmpeg and Cairo) and `litevision-registry` (the registry server: Hummingbird and SQLite). Keeping them
/// apart means `litevision label` starts without loading any of those libraries; `litevision` hands a command over
/// by replacing itself with the sibling (execv), so exit status, signals and standard streams stay the same.
package enum SiblingProgram {
    /// The program that runs `track` and `detect --annotate`.
    package static let media = "litevision-media"
    /// The program that runs `registry serve|token|backup`.
    package static let registry = "litevision-registry"

    /// The path of `name` in the folder of the running executable, or nil when that folder cannot be told (no
    /// /proc): a bare name would run whatever program of that name the current folder holds.
    package static func path(_ name: String) -> String? {
        Subprocess.executableDirectory().map { $0 + "/" + name }
    }

    /// Replaces this process with the sibling `name` run with this process's own arguments, byte for byte (a
    /// `String` would replace bytes that are not UTF-8, e.g. in a file name).
    package static func execForwardingArguments(to name: String) throws -> Never {
        let count = Int(CommandLine.argc)
        let forwarded = count > 1 ? (1..<count).map { CommandLine.unsafeArgv[$0] } : []
        try exec(name, rawArguments: forwarded)
    }

    /// Replaces this process with the sibling `name` run with `arguments`. Returns only by throwing exit status 2
    /// after printing why the program cannot be started.
    package static func exec(_ name: String, arguments: [String]) throws -> Never {
        let copies = arguments.map { strdup($0) }
        defer { for copy in copies { free(copy) } }
        try exec(name, rawArguments: copies)
    }

    /// Replaces this process with the sibling `name` run with `arguments` as given (C strings).
    private static func exec(_ name: String, rawArguments: [UnsafeMutablePointer<CChar>?]) throws -> Never {
        guard let program = path(name) else {
            Console.error(
                "litevision: cannot tell which folder litevision runs from (/proc/self/exe), so \(name) is not started")
            throw ExitCode(2)
        }
        let programCopy = strdup(program)
        defer { free(programCopy) }
        var argv: [UnsafeMutablePointer<CChar>?] = [programCopy] + rawArguments + [nil]
        execv(program, &argv)
        let reason = errorDescription(errno)
        Console.error(
            "litevision: \(program) cannot be started (\(reason)); build it with `swift build -c release --product \(name)`, which puts it next to litevision"
        )
        throw ExitCode(2)
    }
}
