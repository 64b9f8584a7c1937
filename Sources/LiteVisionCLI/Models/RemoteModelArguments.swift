import ArgumentParser
import FoundationEssentials
import LiteVision
import LiteVisionModelStore
import LiteVisionSystem

/// `--remote-model NAME` for `label`, `detect` and `track`: the model is downloaded from a registry first (or
/// found up to date in the cache) and then run from the cache.
struct RemoteModelArguments: ParsableArguments {
    @Option(
        name: .customLong("remote-model"),
        help: "A classifier on a LiteVision model registry, downloaded into the model cache before use.")
    var remoteModel: String?

    @OptionGroup var connection: RegistryConnection

    @Option(
        name: .long, help: "The model cache folder (default: LITEVISION_MODEL_CACHE, else ~/.cache/litevision/models).")
    var cache: String?

    /// The remote model, downloaded; nil without `--remote-model`. When the registry cannot be reached but a
    /// copy is installed, that copy is used and a warning printed (ML Kit's pattern: the last downloaded model
    /// keeps working offline). Other failures are printed and turn into exit status 2.
    func prepare() throws -> CustomRemoteModel? {
        guard let remoteModel else { return nil }
        if let cache { setenv("LITEVISION_MODEL_CACHE", cache, 1) }  // where the labeler looks for the copy
        let download = try Self.download(name: remoteModel, connection: connection, cache: cache, clientID: nil)
        switch download {
        case .success:
            break
        case .failure(let error):
            let source = RegistryModelSource(
                registry: (try? connection.address()) ?? "", name: remoteModel, readToken: try connection.token())
            let model = CustomRemoteModel(remoteModelSource: source)
            guard RemoteModelCache().installed(model) != nil, Self.isUnreachable(error.reason) else {
                Console.error("litevision: \(error)")
                throw ExitCode(2)
            }
            Console.error("litevision: warning: using the model already downloaded, since \(error.cause)")
        }
        return CustomRemoteModel(
            remoteModelSource: RegistryModelSource(
                registry: try connection.address(), name: remoteModel, readToken: try connection.token()))
    }

    private static func isUnreachable(_ reason: ModelDownloadError.Reason) -> Bool {
        switch reason {
        case .unreachable, .hostNotFound, .incomplete: true
        default: false
        }
    }

    /// Downloads `name` from the registry of `connection` into `cache` (default: the usual cache), with a
    /// progress bar on a terminal. Throws (exit status 2, message printed) only when the options are unusable.
    static func download(
        name: String, connection: RegistryConnection, cache: String?, clientID: String?,
        configure: (inout RemoteModelDownloader) -> Void = { _ in }
    ) throws -> Result<InstalledModel, ModelDownloadError> {
        let registry = try connection.address()
        let token = try connection.token()
        let model = CustomRemoteModel(
            remoteModelSource: RegistryModelSource(registry: registry, name: name, readToken: token))
        var downloader = RemoteModelDownloader(cache: cache.map { RemoteModelCache(root: $0) } ?? RemoteModelCache())
        downloader.caFile = connection.caFile
        configure(&downloader)
        let progress = DownloadProgress(label: "downloading \(name)")
        defer { progress.finish() }
        return Result { () throws(ModelDownloadError) in
            try downloader.download(model, clientID: clientID, progress: progress.update)
        }
    }
}
