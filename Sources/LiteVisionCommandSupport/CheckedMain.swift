import ArgumentParser
import LiteVisionSystem

extension ParsableCommand {
    /// ArgumentParser's `main()`, with the messages it prints itself (help, version, usage errors) written
    /// unbuffered through ``Console``: help that standard output cannot take (a full disk, `--help > /dev/full`)
    /// ends the process with status 1 and a message, not with a success. Lines of output the command itself
    /// cannot write end it with status 1 too (``Console/failOnLostOutputAtExit()``).
    package static func mainCheckingOutput() {
        Console.failOnLostOutputAtExit()
        do {
            var command = try parseAsRoot(NegativeNumberArguments.joined(CommandLine.arguments.dropFirst()))
            try command.run()
        } catch {
            exitWithCheckedMessage(for: error)
        }
    }

    /// Like ArgumentParser's `exit(withError:)`: the message for `error` on standard output (help, version)
    /// or standard error (failures), then the exit status for `error`, or 1 when the message was lost.
    package static func exitWithCheckedMessage(for error: any Error) -> Never {
        let message = fullMessage(for: error)
        let status = exitCode(for: error)
        if !message.isEmpty {
            let text = ConsoleText(lines: message)
            if status == .success { Console.output(text) } else { Console.error(text) }
        }
        Platform.exit(status.rawValue)
    }
}

extension AsyncParsableCommand {
    /// ``mainCheckingOutput()`` for a command whose subcommands run asynchronously.
    package static func mainCheckingOutput() async {
        Console.failOnLostOutputAtExit()
        do {
            var command = try await asyncParseAsRoot(NegativeNumberArguments.joined(CommandLine.arguments.dropFirst()))
            if var command = command as? AsyncParsableCommand {
                try await command.run()
            } else {
                try command.run()
            }
        } catch {
            exitWithCheckedMessage(for: error)
        }
    }
}
