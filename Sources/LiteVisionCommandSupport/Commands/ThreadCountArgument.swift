import ArgumentParser
import LiteVision

/// `--threads N` (`label`, `detect`, `track`): its help and its bounds, 1 to
/// ``ProcessingOptions/maximumThreadCount``, shared by the commands that take it.
package enum ThreadCountArgument {
    /// The help of `--threads`; `defaultCount` says what the command uses without it.
    package static func help(defaultCount: String) -> ArgumentHelp {
        ArgumentHelp(
            "Threads per inference, 1 to \(ProcessingOptions.maximumThreadCount) (default: \(defaultCount)).",
            valueName: "n")
    }

    /// Refuses a `--threads` value outside 1...``ProcessingOptions/maximumThreadCount`` with a usage error that
    /// names the bounds (every thread is started for real: an unbounded count fills the process table).
    package static func validate(_ threads: Int?) throws {
        guard let threads else { return }
        let maximum = ProcessingOptions.maximumThreadCount
        guard (1...maximum).contains(threads) else {
            throw ValidationError(
                "--threads must be between 1 and \(maximum) (64, or the number of cores on a machine with more), "
                    + "got \(threads).")
        }
    }
}

/// What a command uses without `--threads`, as the help of ``ProcessingArguments`` says it.
package protocol ThreadCountDefault {
    /// The default, in words: "the number of cores".
    static var description: String { get }
}
