import ArgumentParser
import LiteVisionModelStore
import LiteVisionSystem

extension OutputPaths {
    /// Checks a command's output paths against its `inputs` with `claim`, before any work starts (the rules are
    /// ``OutputPaths``'s): the first problem is printed and ends the command with status 2, as a model that cannot
    /// be loaded does. No file output may lie in a model cache (the default ones, and `cache`, a `--cache` given
    /// to the command): models are downloaded there while the command runs. A command that checks again just before
    /// it writes (a folder on an output's path may have been replaced meanwhile) gives `status` 1.
    package static func check(
        inputs: [String], cache: String? = nil, status: Int32 = 2,
        _ claim: (inout OutputPaths) throws(OutputPathError) -> Void
    ) throws {
        let caches = [ModelCache.defaultRoot, ModelCatalog.cacheFolder] + (cache.map { [$0] } ?? [])
        var outputs = OutputPaths(inputs: inputs, protectedFolders: caches)
        do {
            try claim(&outputs)
        } catch {
            Console.error("litevision: \(error)")
            throw ExitCode(status)
        }
    }
}
