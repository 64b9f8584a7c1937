import Dispatch
import Foundation
import LiteVision
import LiteVisionModelStore

/// Downloads remote models and keeps track of them, as ML Kit's `ModelManager`.
///
/// ```swift
/// import LiteVisionModelManager   // also brings in LiteVision
///
/// let remoteModel = CustomRemoteModel(
///     remoteModelSource: .url("https://models.example.com/birds.tflite", sha256: "7951…416f"))
/// NotificationCenter.default.addObserver(forName: .mlkitModelDownloadDidSucceed, object: nil, queue: nil) { _ in
///     // ImageLabeler.imageLabeler(options: CustomImageLabelerOptions(remoteModel: remoteModel)) works from now on
/// }
/// let progress = ModelManager.modelManager().download(remoteModel, conditions: ModelDownloadConditions())
/// ```
///
/// - A download fetches the model when it is absent or a newer version exists; when the newest is already
///   there it completes at once, and success is posted all the same.
/// - Transfers resume: the bytes of an interrupted download are kept and only the rest is fetched next time,
///   also by another process. Nothing is installed before it is complete and verified (the source's SHA-256,
///   and the TFLite identifier), and a failed download never replaces the version already there.
/// - Concurrent downloads of one model with the same conditions share one transfer (and one `Progress`), running
///   or waiting. A download asked with other conditions is not folded into another: it gets its own `Progress`
///   and runs under its own conditions once the transfers of that model asked before it have ended (finding the
///   model installed then, when one of them succeeded). Cancelling a download that waits for its turn ends it
///   at once, posted as failed with ``ModelDownloadError/Reason/cancelled``.
/// - The outcome is posted on `NotificationCenter.default`, from a background thread, as
///   `.mlkitModelDownloadDidSucceed` or `.mlkitModelDownloadDidFail`, with the model under
///   ``ModelDownloadUserInfoKey/remoteModel`` and, on failure, the error as an `NSError` in ML Kit's domain
///   under ``ModelDownloadUserInfoKey/error`` and as a ``ModelDownloadError`` under
///   ``ModelDownloadUserInfoKey/downloadError``.
///
/// Downloaded models live in the cache folder given to ``init(cacheFolder:)``; the shared manager's is
/// `LITEVISION_MODEL_CACHE`, else `~/.cache/litevision/models` (`$XDG_CACHE_HOME` when set), under `remote/`.
public final class ModelManager: @unchecked Sendable {
    // @unchecked: `transfers` is only read and written with `lock` held; `downloader` is an immutable value.
    private let lock = NSLock()
    private var transfers: [RemoteModel: [Transfer]] = [:]
    private let downloader: ModelDownloader

    private static let shared = ModelManager(downloader: ModelDownloader())

    /// The model manager of this process (ML Kit's singleton).
    public static func modelManager() -> ModelManager { shared }

    /// A manager downloading with `downloader` (for a cache other than the default one).
    package init(downloader: ModelDownloader) {
        self.downloader = downloader
    }

    /// A manager keeping its downloaded models in `cacheFolder` instead of the default cache (see above; an empty
    /// `cacheFolder` means the default cache); a labeler or detector finds them there when given the same folder.
    public convenience init(cacheFolder: String) {
        self.init(downloader: ModelDownloader(cache: ModelCache(folder: cacheFolder)))
    }

    /// Whether a downloaded copy of `remoteModel` is on this machine (a labeler or detector can be made from it).
    public func isModelDownloaded(_ remoteModel: RemoteModel) -> Bool {
        downloader.cache.installed(remoteModel) != nil
    }

    /// Starts downloading `remoteModel` in the background when `conditions` allow it, and returns the transfer's
    /// progress in bytes (`totalUnitCount` is the file's size once the server has said it); `progress.cancel()`
    /// stops the transfer within about a second. The outcome is posted on `NotificationCenter.default`.
    @discardableResult
    public func download(_ remoteModel: RemoteModel, conditions: ModelDownloadConditions) -> Progress {
        transfer(of: remoteModel, conditions: conditions).progress
    }

    /// Downloads `remoteModel` (see ``download(_:conditions:)``) and returns when it is installed; the same
    /// notifications are posted. (Named after ML Kit's Objective-C `downloadModel:conditions:`, so that
    /// `download(_:conditions:)` keeps returning a `Progress` inside `async` code too.)
    /// - Throws: ``ModelDownloadError`` saying why the model could not be downloaded.
    public func downloadModel(
        _ remoteModel: RemoteModel, conditions: ModelDownloadConditions = ModelDownloadConditions()
    ) async throws(ModelDownloadError) {
        let transfer = transfer(of: remoteModel, conditions: conditions)
        let outcome = await withCheckedContinuation { continuation in
            transfer.whenDone { continuation.resume(returning: $0) }
        }
        try outcome.get()
    }

    /// Deletes the downloaded copy of `remoteModel` (no error when there is none) in the background and calls
    /// `completion` with the error, if any: on the main queue, as ML Kit does, when the program services it
    /// (`dispatchMain()`, `RunLoop.main`, an `async` main that is waiting), else on a background queue, so that
    /// a program without a main loop, or whose main thread waits for this very call, still gets its answer (the
    /// rule of `process(_:completion:)`).
    public func deleteDownloadedModel(
        _ remoteModel: RemoteModel, completion: @escaping @Sendable ((any Error)?) -> Void
    ) {
        let cache = downloader.cache
        runInBackground(
            on: nil, qos: .utility,
            { () throws(ModelDownloadError) in
                if let error = Self.delete(remoteModel, in: cache) { throw error }
            },
            completion: { _, error in completion(error) })
    }

    /// Deletes the downloaded copy of `remoteModel` (no error when there is none).
    /// - Throws: ``ModelDownloadError`` with a file-system reason when a file could not be removed.
    public func deleteDownloadedModel(_ remoteModel: RemoteModel) async throws(ModelDownloadError) {
        if let error = Self.delete(remoteModel, in: downloader.cache) { throw error }
    }

    private static func delete(_ model: RemoteModel, in cache: ModelCache) -> ModelDownloadError? {
        do {
            try cache.delete(model)
            return nil
        } catch {
            return ModelDownloadError(
                url: model.sourceURL, expectedSHA256: "", reason: .fileSystem(path: error.path, detail: error.reason))
        }
    }

    /// The transfer of `model` with the same `conditions`, running or waiting, or a new one: started now when no
    /// other transfer of `model` is under way, else once the last of them has ended (transfers of one model take
    /// turns, each under its own conditions).
    private func transfer(of model: RemoteModel, conditions: ModelDownloadConditions) -> Transfer {
        let (transfer, predecessor): (Transfer, Transfer?) = lock.withLock {
            let queue = transfers[model, default: []]
            if let same = queue.first(where: { $0.conditions == conditions }) { return (same, nil) }
            let transfer = Transfer(conditions: conditions)
            transfers[model] = queue + [transfer]
            return (transfer, queue.last ?? transfer)
        }
        guard let predecessor else { return transfer }  // joined one already there
        if predecessor === transfer {
            start(transfer, of: model)
        } else {
            // A transfer cancelled while it waits ends at once, without waiting for its turn.
            transfer.progress.cancellationHandler = { [self] in
                guard transfer.claimStart() else { return }
                // Posted from a background thread, as every outcome is, not from the caller of `cancel()`.
                DispatchQueue.global(qos: .utility).async {
                    self.post(.failure(Self.cancelled(model)), for: transfer, of: model)
                }
            }
            predecessor.whenDone { [self] _ in start(transfer, of: model) }
        }
        return transfer
    }

    /// Runs `transfer` on a background thread, then posts its outcome (unless it was cancelled while waiting,
    /// which has posted already).
    private func start(_ transfer: Transfer, of model: RemoteModel) {
        guard transfer.claimStart() else { return }
        let downloader = downloader
        DispatchQueue.global(qos: .utility).async { [self] in
            let outcome =
                transfer.progress.isCancelled
                ? .failure(Self.cancelled(model))
                : Self.run(downloader, model, conditions: transfer.conditions, progress: transfer.progress)
            post(outcome, for: transfer, of: model)
        }
    }

    /// Removes `transfer` from the transfers of `model`, posts its outcome and hands it to whoever waits for it.
    private func post(_ outcome: Result<Void, ModelDownloadError>, for transfer: Transfer, of model: RemoteModel) {
        lock.withLock {
            transfers[model]?.removeAll { $0 === transfer }
            if transfers[model]?.isEmpty == true { transfers[model] = nil }
        }
        var userInfo: [AnyHashable: Any] = [ModelDownloadUserInfoKey.remoteModel.rawValue: model]
        switch outcome {
        case .success:
            NotificationCenter.default.post(name: .mlkitModelDownloadDidSucceed, object: self, userInfo: userInfo)
        case .failure(let error):
            // An NSError, as ML Kit's (`as? NSError` finds it; on Linux it would not find a Swift error), and the
            // ModelDownloadError itself.
            userInfo[ModelDownloadUserInfoKey.error.rawValue] = error as NSError
            userInfo[ModelDownloadUserInfoKey.downloadError.rawValue] = error
            NotificationCenter.default.post(name: .mlkitModelDownloadDidFail, object: self, userInfo: userInfo)
        }
        transfer.finish(outcome)
    }

    /// The error of a download of `model` cancelled before it started.
    private static func cancelled(_ model: RemoteModel) -> ModelDownloadError {
        ModelDownloadError(url: model.sourceURL, expectedSHA256: "", reason: .cancelled)
    }

    private static func run(
        _ downloader: ModelDownloader, _ model: RemoteModel, conditions: ModelDownloadConditions,
        progress: Progress
    ) -> Result<Void, ModelDownloadError> {
        var downloader = downloader
        downloader.allowsCellularAccess = conditions.allowsCellularAccess
        downloader.isBackground = conditions.allowsBackgroundDownloading
        return Result { () throws(ModelDownloadError) in
            _ = try downloader.download(
                model,
                progress: { completed, total in
                    if let total, progress.totalUnitCount != total { progress.totalUnitCount = total }
                    progress.completedUnitCount = completed
                }, isCancelled: { progress.isCancelled })
        }
    }
}

/// One running download: its progress, and whoever waits for its outcome.
private final class Transfer: @unchecked Sendable {
    // @unchecked: `outcome`, `started` and `waiters` are only touched with `lock` held; `progress` is thread-safe;
    // `conditions` is an immutable value.
    let progress = Progress(totalUnitCount: -1)
    /// The conditions it runs under.
    let conditions: ModelDownloadConditions
    private let lock = NSLock()
    private var outcome: Result<Void, ModelDownloadError>?
    private var started = false
    private var waiters: [@Sendable (Result<Void, ModelDownloadError>) -> Void] = []

    init(conditions: ModelDownloadConditions) {
        self.conditions = conditions
    }

    /// True once, for whoever starts the transfer or ends it before it started (a cancellation while it waits).
    func claimStart() -> Bool {
        lock.withLock {
            defer { started = true }
            return !started
        }
    }

    /// Calls `body` with the outcome once the transfer has ended (at once if it has).
    func whenDone(_ body: @escaping @Sendable (Result<Void, ModelDownloadError>) -> Void) {
        let done: Result<Void, ModelDownloadError>? = lock.withLock {
            if outcome == nil { waiters.append(body) }
            return outcome
        }
        if let done { body(done) }
    }

    func finish(_ result: Result<Void, ModelDownloadError>) {
        let waiting = lock.withLock {
            outcome = result
            defer { waiters = [] }
            return waiters
        }
        for waiter in waiting { waiter(result) }
    }
}

extension RemoteModel {
    /// The address the model is downloaded from, for errors.
    fileprivate var sourceURL: String {
        remoteModelSource.location.displayAddress
    }
}
