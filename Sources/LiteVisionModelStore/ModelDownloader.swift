import Crypto
import FoundationEssentials
import LiteVisionSystem

/// The model store's one downloader: built-in models (as addresses pinned by their SHA-256), models at an address
/// and registry models all go through its transfer into a ``ModelCache``: resumable, verified, cancellable,
/// installed atomically, with the ``TransferSettings`` given (size limit, timeouts, certificates, libcurl).
///
/// - **Up to date at once**: a model whose installed copy has the source's SHA-256 (or, for a source without
///   one, whose server answers `304 Not Modified` to the installed copy's `ETag`) is not transferred again.
/// - **Resumable**: bytes already received (`download.partial`) are kept when a transfer fails or is cancelled,
///   and the next download of the same model, in this process or another, asks only for the rest (`Range`,
///   guarded by `If-Range` with the server's `ETag`); a server that sends the whole file again is handled.
/// - **Verified, then installed**: the SHA-256 is checked (when the source gives one) and the file must be a
///   TFLite FlatBuffer before it becomes the model; a failure leaves the previous version in place.
/// - **One transfer per model**: concurrent downloads of one model, from any process, take turns on a lock in
///   its folder; the later ones find it installed.
package struct ModelDownloader: Sendable {
    package var cache: ModelCache
    /// The limits, timeouts, certificates and libcurl of every transfer.
    package var settings = TransferSettings()
    /// Where built-in models are fetched from: `baseURL/<file name>` instead of their official address (a mirror);
    /// nil: `LITEVISION_MODEL_BASE_URL`, if set.
    package var baseURL: String?

    /// When false, a download does not run while the network is cellular (``DefaultRoute/cellularReason(metered:)``):
    /// it fails with ``ModelDownloadError/Reason/conditionsNotMet(_:)``, or, in the background, waits.
    package var allowsCellularAccess = true
    /// Background downloading (ML Kit's `allowsBackgroundDownloading`, given a meaning on Linux): instead of
    /// failing at the first network problem, the download waits it out. A failure that time can cure — the server
    /// unreachable or not found, a transfer cut off, HTTP 408, 429 or 5xx, a cellular network when cellular access
    /// is not allowed — is retried after 1, 2, 4 … up to 60 seconds, until it succeeds, is cancelled, or
    /// `backgroundTimeLimit` seconds have passed; each attempt resumes the bytes already received. Failures time
    /// cannot cure (404, a hash mismatch, a full disk …) end it at once.
    package var isBackground = false
    /// How long a background download keeps retrying (seconds; 24 hours by default).
    package var backgroundTimeLimit: Double = 86_400

    /// A downloader into `cache` (by default the one of ``ModelCache/defaultRoot``).
    package init(cache: ModelCache = ModelCache(), baseURL: String? = nil) {
        self.cache = cache
        self.baseURL = baseURL
    }

    /// Makes the newest version of `model` installed and returns it. `progress` is told the bytes of the file
    /// present so far and the file's size when known; `isCancelled` is asked about once a second.
    ///
    /// For a registry source, the registry is asked first which version this machine gets, as `clientID`
    /// (by default the cache's own stable id, ``ModelCache/clientID()``); a model whose installed copy is
    /// that version completes without a transfer.
    package func download(
        _ model: RemoteModel, clientID: String? = nil,
        progress: (_ completed: Int64, _ total: Int64?) -> Void = { _, _ in }, isCancelled: () -> Bool = { false }
    ) throws(ModelDownloadError) -> InstalledModel {
        try download(model, clientID: clientID, adoptingAs: nil, progress: progress, isCancelled: isCancelled)
    }

    /// ``download(_:clientID:progress:isCancelled:)``; with `adoptingAs`, the installed file is moved to that
    /// path (a built-in model's) and the model's folder removed, under its lock; when it fails, the folder is
    /// removed unless it holds bytes to resume.
    func download(
        _ model: RemoteModel, clientID: String?, adoptingAs adopted: String?,
        progress: (_ completed: Int64, _ total: Int64?) -> Void, isCancelled: () -> Bool
    ) throws(ModelDownloadError) -> InstalledModel {
        let started = ContinuousClock.now
        var delay = 1.0
        while true {
            do {
                return try attempt(
                    model, clientID: clientID, adoptingAs: adopted, progress: progress, isCancelled: isCancelled)
            } catch {
                let elapsed = ContinuousClock.now - started
                guard isBackground, Self.isTransient(error.reason),
                    Double(elapsed.components.seconds) + delay < backgroundTimeLimit
                else { throw error }
                // Wait, asking about cancellation every 0.1 s.
                let until = ContinuousClock.now + .milliseconds(Int(delay * 1000))
                while ContinuousClock.now < until {
                    if isCancelled() {
                        throw ModelDownloadError(
                            url: error.url, expectedSHA256: error.expectedSHA256, reason: .cancelled)
                    }
                    usleep(100_000)
                }
                delay = min(delay * 2, 60)
            }
        }
    }

    /// Makes the newest version of `model` installed, as ``download(_:clientID:progress:isCancelled:)``, but
    /// works offline: when the download fails for a reason time can cure (``isTransient(_:)``: the registry or
    /// server cannot be asked now) and a version is installed already, that version is returned with the failure
    /// (ML Kit's pattern: the last downloaded model keeps working offline). Any other failure is thrown.
    package func downloadOrUseInstalled(
        _ model: RemoteModel, clientID: String? = nil,
        progress: (_ completed: Int64, _ total: Int64?) -> Void = { _, _ in }, isCancelled: () -> Bool = { false }
    ) throws(ModelDownloadError) -> (installed: InstalledModel, offline: ModelDownloadError?) {
        do {
            return (try download(model, clientID: clientID, progress: progress, isCancelled: isCancelled), nil)
        } catch {
            guard Self.isTransient(error.reason), let installed = cache.installed(model) else { throw error }
            return (installed, error)
        }
    }

    /// Whether waiting may cure a failure: the server unreachable or not found, a transfer cut off or past its
    /// time limit, HTTP 408, 429 or 5xx (a proxy whose registry is down), a cellular network when cellular access
    /// is not allowed. The one rule for what a background download retries (see ``isBackground``) and for when a
    /// command falls back on the version already installed (the registry cannot be asked now, but the model it
    /// gave before keeps working offline, as ML Kit's last downloaded model does); any other failure (404, a hash
    /// mismatch, a refused token, a full disk …) is reported.
    package static func isTransient(_ reason: ModelDownloadError.Reason) -> Bool {
        switch reason {
        case .unreachable, .hostNotFound, .incomplete, .conditionsNotMet: true
        case .httpStatus(let status): status == 408 || status == 429 || status >= 500
        default: false
        }
    }

    /// One try of ``download(_:clientID:adoptingAs:progress:isCancelled:)``.
    private func attempt(
        _ model: RemoteModel, clientID: String?, adoptingAs adopted: String?,
        progress: (_ completed: Int64, _ total: Int64?) -> Void, isCancelled: () -> Bool
    ) throws(ModelDownloadError) -> InstalledModel {
        let location = model.remoteModelSource.location
        // Failures before the file's address is known name the source.
        let source = DownloadTarget(url: location.displayAddress)
        if adopted == nil, case .url(_, let sha256) = location,
            let installed = current(model, sha256: sha256, progress: progress)
        {
            return installed
        }
        if !allowsCellularAccess, let reason = DefaultRoute.cellularReason() {
            throw source.failure(.conditionsNotMet("\(reason), and cellular access is not allowed"))
        }
        if case .registry(let registry, let name, let token) = location,
            let reason = RegistryLookup.check(registry: registry, name: name) ?? RegistryLookup.check(token: token)
        {
            throw source.failure(reason)
        }
        let curl: CurlLibrary
        switch settings.curl() {
        case .success(let library): curl = library
        case .failure(let problem): throw source.failure(problem.reason)
        }
        let target = try self.target(of: location, curl: curl, clientID: clientID, isCancelled: isCancelled)
        if case .registry = location, let installed = current(model, sha256: target.expectedSHA256, progress: progress)
        {
            return installed
        }
        let lock: FolderLock
        do throws(TransferProblem) {
            lock = try FolderLock(folder: cache.folder(of: model), isCancelled: isCancelled)
        } catch {
            throw target.failure(error)
        }
        guard let adopted else {
            defer { lock.release() }
            return try transfer(model, curl: curl, target: target, progress: progress, isCancelled: isCancelled)
        }
        // A built-in model: its file moves to `adopted`, and its folder goes, unless bytes wait to be resumed.
        // A download of it that held the lock before this one may have put it there already (verified).
        if let size = try? FileContents.requireRegularFile(atPath: adopted) {
            lock.release(removing: ModelCache.transferFiles)
            let record = InstalledModel.Record(url: target.url, sha256: target.expectedSHA256 ?? "", size: size)
            return InstalledModel(folder: lock.folder, record: record)
        }
        var keepsFolder = false
        defer { lock.release(removing: keepsFolder ? nil : ModelCache.transferFiles) }
        do throws(ModelDownloadError) {
            let installed = try transfer(
                model, curl: curl, target: target, progress: progress, isCancelled: isCancelled)
            do throws(TransferProblem) {
                try ModelCache.adopt(installed, as: adopted)
            } catch {
                throw target.failure(error)
            }
            return installed
        } catch {
            keepsFolder = ModelCache.hasPartialBytes(in: lock.folder)
            throw error
        }
    }

    /// The installed version of `model` when it has `sha256` (its whole size then reported as progress), else nil.
    private func current(
        _ model: RemoteModel, sha256: String?, progress: (_ completed: Int64, _ total: Int64?) -> Void
    ) -> InstalledModel? {
        guard let sha256, let installed = cache.installed(model), installed.sha256 == sha256 else { return nil }
        progress(Int64(installed.size), Int64(installed.size))
        return installed
    }

    /// The file to fetch for `location`: the address itself, or the file of the version a registry serves to this
    /// machine (asked as `clientID`, by default the cache's own).
    private func target(
        of location: RemoteModelLocation, curl: CurlLibrary, clientID: String?, isCancelled: () -> Bool
    ) throws(ModelDownloadError) -> DownloadTarget {
        let source = DownloadTarget(url: location.displayAddress)
        switch location {
        case .url(let address, let digest):
            return DownloadTarget(url: address, expectedSHA256: digest)
        case .registry(let registry, let name, let token):
            let client: String
            if let clientID {
                client = clientID
            } else {
                do {
                    client = try cache.clientID()
                } catch {
                    throw source.failure(.fileSystem(path: error.path, detail: error.reason))
                }
            }
            let served: RegistryLookup.Served
            do throws(TransferProblem) {
                served = try RegistryLookup.served(
                    curl, registry: registry, name: name, token: token, clientID: client, settings: settings,
                    isCancelled: isCancelled)
            } catch {
                throw source.failure(error)
            }
            return DownloadTarget(
                url: served.fileURL, expectedSHA256: served.sha256, version: served.version,
                announcedSize: served.size, headers: token.map { ["Authorization: Bearer \($0)"] } ?? [])
        }
    }

    /// The transfer of the target into the folder of `model`, whose lock the caller holds, until it is installed.
    private func transfer(
        _ model: RemoteModel, curl: CurlLibrary, target: DownloadTarget,
        progress: (_ completed: Int64, _ total: Int64?) -> Void, isCancelled: () -> Bool
    ) throws(ModelDownloadError) -> InstalledModel {
        // Another process may have installed it while this one waited for the lock.
        let installed = cache.installed(model)
        if let installed, let expected = target.expectedSHA256, installed.sha256 == expected {
            progress(Int64(installed.size), Int64(installed.size))
            return installed
        }
        var attempt = PartialDownload(
            folder: cache.folder(of: model), url: target.url, expectedSHA256: target.expectedSHA256,
            version: target.version, announcedSize: target.announcedSize)
        do throws(TransferProblem) {
            for _ in 0..<2 {  // a second attempt only when the server refuses the range or ignores If-Range
                let outcome = try attempt.run(
                    curl, settings: settings, headers: target.headers, installed: installed, progress: progress,
                    isCancelled: isCancelled)
                switch outcome {
                case .upToDate(let installed): return installed
                case .complete: return try attempt.install()
                case .restart: attempt.discard()
                }
            }
        } catch {
            throw target.failure(error)
        }
        throw target.failure(.incomplete(detail: "the server would not send the rest of the file, nor the whole of it"))
    }
}

/// The file one download fetches, once known, and how its failures are told.
struct DownloadTarget {
    /// The file's address (the source's address until a registry has named the file).
    var url: String
    /// The SHA-256 it must have, when known.
    var expectedSHA256: String? = nil
    /// The registry's version number of the file.
    var version: Int? = nil
    /// The file's size as the registry announced it.
    var announcedSize: Int? = nil
    /// Extra request headers (a registry's token).
    var headers: [String] = []

    /// The error for `reason`, naming the file.
    func failure(_ reason: ModelDownloadError.Reason) -> ModelDownloadError {
        ModelDownloadError(url: url, expectedSHA256: expectedSHA256 ?? "", reason: reason)
    }

    /// The error for `problem`, naming the file, with what the server said.
    func failure(_ problem: TransferProblem) -> ModelDownloadError {
        var error = failure(problem.reason)
        error.serverMessage = problem.serverMessage
        return error
    }
}
