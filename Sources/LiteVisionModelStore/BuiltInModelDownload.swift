import FoundationEssentials
import LiteVisionSystem

extension ModelDownloader {
    /// The address `model` is downloaded from: its ``BuiltInModel/officialURL``, or `BASE/<file name>` when a base
    /// URL is given (``baseURL``, else the `LITEVISION_MODEL_BASE_URL` environment variable), e.g. a mirror.
    package func url(of model: BuiltInModel) -> String {
        let env = ProcessInfo.processInfo.environment["LITEVISION_MODEL_BASE_URL"].flatMap { $0.isEmpty ? nil : $0 }
        guard var base = baseURL ?? env else { return model.officialURL }
        while base.hasSuffix("/") { base.removeLast() }
        return base + "/" + model.rawValue
    }

    /// The most bytes a built-in model's download may bring (200 MB; the files are a few MB): a mirror sending
    /// more is cut off before it fills the disk, whatever ``TransferSettings/sizeLimit`` allows other models.
    package static let builtInSizeLimit = 200_000_000

    /// Downloads the built-in `model` into the cache folder (``ModelCache/path(of:)``) and returns its path there:
    /// the same transfer as any model at an address pinned by its SHA-256, so it resumes the bytes of an
    /// interrupted download, stops when `isCancelled` says so (asked about once a second) and trusts the
    /// certificates of ``TransferSettings/caFile``. The final path never holds a partial or unverified file; the
    /// bytes of a cut or cancelled transfer wait in the cache's `remote/` folder for the next download.
    package func download(
        _ model: BuiltInModel, progress: (_ completed: Int64, _ total: Int64?) -> Void = { _, _ in },
        isCancelled: () -> Bool = { false }
    ) throws(ModelDownloadError) -> String {
        let source = CustomRemoteModel(remoteModelSource: .url(url(of: model), sha256: model.sha256))
        let path = cache.path(of: model)
        defer { rmdir(cache.remoteFolder) }  // gone when no other model uses it
        var downloader = self
        downloader.settings.sizeLimit = min(settings.sizeLimit, Self.builtInSizeLimit)
        do {
            _ = try downloader.download(
                source, clientID: nil, adoptingAs: path, progress: progress, isCancelled: isCancelled)
            return path
        } catch {
            var error = error
            error.model = model
            throw error
        }
    }
}
