import ArgumentParser
import LiteVisionSystem

extension OutputPaths {
    /// Checks a command's output paths against its `inputs` with `claim`, before any work starts (the rules are
    /// ``OutputPaths``'s): the first problem is printed and ends the command with status 2, as a model that cannot
    /// be loaded does.
    package static func check(inputs: [String], _ claim: (inout OutputPaths) throws(OutputPathError) -> Void) throws {
        var outputs = OutputPaths(inputs: inputs)
        do {
            try claim(&outputs)
        } catch {
            Console.error("litevision: \(error)")
            throw ExitCode(2)
        }
    }
}
