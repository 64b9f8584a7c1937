import ArgumentParser
import FoundationEssentials
import LiteVision
import LiteVisionModelStore
import LiteVisionSystem

/// `--remote-model NAME` for `label`, `detect` and `track`: the model is downloaded from a registry first (or
/// found up to date in the cache) and then run from the cache.
package struct RemoteModelArguments: ParsableArguments {
    /// The arguments, as ArgumentParser fills them.
    package init() {}

    @Option(
        name: .customLong("remote-model"),
        help: "A classifier on a LiteVision model registry, downloaded into the model cache before use.")
    package var remoteModel: String?

    @OptionGroup package var connection: RegistryConnection

    @Option(
        name: .long, help: "The model cache folder (default: LITEVISION_MODEL_CACHE, else ~/.cache/litevision/models).")
    package var cache: String?

    /// The remote model, downloaded; nil without `--remote-model`. Its copy is in the `--cache` folder, which the
    /// caller gives to the options (`modelCacheFolder`). When the registry cannot be asked now but a version is
    /// installed, that version is used and a warning says so on standard error
    /// (``ModelDownloader/downloadOrUseInstalled(_:clientID:progress:isCancelled:)``). Other failures are printed
    /// and turn into exit status 2.
    package func prepare() throws -> CustomRemoteModel? {
        guard let remoteModel else { return nil }
        try Self.checkCache(cache)
        let model = try Self.model(named: remoteModel, connection: connection)
        var downloader = ModelDownloader(cache: ModelCache(folder: cache))
        connection.configure(&downloader)
        let progress = DownloadProgress(label: "downloading \(model.name)")
        let outcome = Result { () throws(ModelDownloadError) in
            try downloader.downloadOrUseInstalled(model, progress: progress.update)
        }
        progress.finish()
        switch outcome {
        case .failure(let error):
            Console.error("litevision: \(error)")
            throw ExitCode(2)
        case .success((let installed, let offline?)):
            let version = installed.version.map { "version \($0)" } ?? "the copy"
            Console.error(
                "litevision: warning: using \(version) of \(remoteModel) already downloaded (sha256 \(installed.sha256)), since \(offline.cause)"
            )
        case .success:
            break
        }
        return model
    }

    /// The model `name` on the registry of `connection` (exit status 2, message printed, when the options are
    /// unusable).
    package static func model(named name: String, connection: RegistryConnection) throws -> CustomRemoteModel {
        CustomRemoteModel(
            remoteModelSource: .registry(try connection.address(), name: name, readToken: try connection.token()))
    }

    /// Checks that the `--cache` folder, if given, may be written to (not empty, not the root folder, a folder if it
    /// exists); a problem is printed and ends the command with status 2.
    package static func checkCache(_ cache: String?) throws {
        guard let cache else { return }
        try OutputPaths.check(inputs: []) { outputs throws(OutputPathError) in
            try outputs.claimFolder(cache, for: "--cache")
        }
    }

    /// Downloads `model` into `cache` (default: the usual cache) with the certificates and time limits of
    /// `connection`, with a progress bar on a terminal.
    package static func download(
        _ model: CustomRemoteModel, connection: RegistryConnection, cache: String?, clientID: String?,
        configure: (inout ModelDownloader) -> Void = { _ in }
    ) -> Result<InstalledModel, ModelDownloadError> {
        var downloader = ModelDownloader(cache: ModelCache(folder: cache))
        connection.configure(&downloader)
        configure(&downloader)
        let progress = DownloadProgress(label: "downloading \(model.name)")
        defer { progress.finish() }
        return Result { () throws(ModelDownloadError) in
            try downloader.download(model, clientID: clientID, progress: progress.update)
        }
    }
}
