import Crypto
import FoundationEssentials
import LiteVisionSystem

/// Downloads remote models into a ``RemoteModelCache``: resumable, verified, installed atomically.
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
package struct RemoteModelDownloader: Sendable {
    package var cache: RemoteModelCache
    /// Files larger than this many bytes are refused (500 MB by default).
    package var sizeLimit = 500_000_000
    /// Seconds allowed to connect.
    package var connectTimeout = 20
    /// A transfer slower than 1 KB/s for this many seconds is abandoned.
    package var lowSpeedTime = 30
    /// Seconds the registry's answer about which version to download (a small JSON answer) may take in all,
    /// connecting included: 60 by default. A registry that trickles its answer fails the download with
    /// ``ModelDownloadError/Reason/incomplete(detail:)`` instead of holding it for days.
    package var requestDeadline = CurlTransfer.defaultRequestDeadline
    /// Seconds one transfer of the model file may take in all; nil, the default, for no limit (a large model on a
    /// slow link may need long; a transfer slower than 1 KB/s for ``lowSpeedTime`` seconds is abandoned anyway).
    /// A transfer ended by it keeps its bytes: the next download resumes them.
    package var downloadDeadline: Int?
    /// The libcurl library to load.
    package var libraryPath = CurlLibrary.defaultPath
    /// A PEM file of certificates to trust instead of the system's, for a server with its own certificate
    /// (a registry started with `--tls-cert`): by default the `LITEVISION_CA_FILE` setting.
    package var caFile: String? = RemoteModelDownloader.configuredCAFile

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

    /// The `LITEVISION_CA_FILE` setting, if set.
    package static var configuredCAFile: String? {
        ProcessInfo.processInfo.environment["LITEVISION_CA_FILE"].flatMap { $0.isEmpty ? nil : $0 }
    }

    package init(cache: RemoteModelCache = RemoteModelCache()) {
        self.cache = cache
    }

    /// Makes the newest version of `model` installed and returns it. `progress` is told the bytes of the file
    /// present so far and the file's size when known; `isCancelled` is asked about once a second.
    ///
    /// For a registry source, the registry is asked first which version this machine gets, as `clientID`
    /// (by default the cache's own stable id, ``RemoteModelCache/clientID()``); a model whose installed copy is
    /// that version completes without a transfer.
    package func download(
        _ model: RemoteModel, clientID: String? = nil,
        progress: (_ completed: Int64, _ total: Int64?) -> Void = { _, _ in }, isCancelled: () -> Bool = { false }
    ) throws(ModelDownloadError) -> InstalledModel {
        let started = ContinuousClock.now
        var delay = 1.0
        while true {
            do {
                return try attempt(model, clientID: clientID, progress: progress, isCancelled: isCancelled)
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

    /// One try of ``download(_:clientID:progress:isCancelled:)``.
    private func attempt(
        _ model: RemoteModel, clientID: String?, progress: (_ completed: Int64, _ total: Int64?) -> Void,
        isCancelled: () -> Bool
    ) throws(ModelDownloadError) -> InstalledModel {
        let location = model.remoteModelSource.location
        var errorURL = location.displayAddress
        var expectedSHA256: String?
        func failure(_ reason: ModelDownloadError.Reason) -> ModelDownloadError {
            ModelDownloadError(url: errorURL, expectedSHA256: expectedSHA256 ?? "", reason: reason)
        }
        func current(_ sha256: String?) -> InstalledModel? {
            guard let sha256, let installed = cache.installed(model), installed.sha256 == sha256 else { return nil }
            progress(Int64(installed.size), Int64(installed.size))
            return installed
        }
        if case .url(_, let sha256) = location, let installed = current(sha256) { return installed }
        if !allowsCellularAccess, let reason = DefaultRoute.cellularReason() {
            throw failure(.conditionsNotMet("\(reason), and cellular access is not allowed"))
        }
        if case .registry(let registry, let name, let token) = location,
            let reason = RegistryLookup.check(registry: registry, name: name) ?? RegistryLookup.check(token: token)
        {
            throw failure(reason)
        }
        if let reason = CurlTransfer.certificateFileProblem(caFile) { throw failure(reason) }
        let curl: CurlLibrary
        switch CurlLibrary.load(libraryPath) {
        case .success(let library): curl = library
        case .failure(let error): throw failure(error.reason)
        }
        let url: String
        var headers: [String] = []
        var version: Int?
        var announcedSize: Int?
        switch location {
        case .url(let address, let digest):
            (url, expectedSHA256) = (address, digest)
        case .registry(let registry, let name, let token):
            let client: String
            if let clientID {
                client = clientID
            } else {
                do {
                    client = try cache.clientID()
                } catch {
                    throw failure(.fileSystem(path: error.path, detail: error.reason))
                }
            }
            let served = try RegistryLookup.served(
                curl, registry: registry, name: name, token: token, clientID: client, downloader: self,
                isCancelled: isCancelled, failure: failure)
            (url, expectedSHA256, version) = (served.fileURL, served.sha256, served.version)
            announcedSize = served.size
            errorURL = served.fileURL
            if let token { headers.append("Authorization: Bearer \(token)") }
            if let installed = current(served.sha256) { return installed }
        }
        let folder = cache.folder(of: model)
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        } catch {
            throw failure(.fileSystem(path: folder, detail: "the folder could not be created (\(error))"))
        }
        let lock = try FolderLock(folder + "/.lock", isCancelled: isCancelled, failure: failure)
        defer { lock.release() }
        // Another process may have installed it while this one waited for the lock.
        if let installed = current(expectedSHA256) { return installed }
        var attempt = PartialDownload(
            folder: folder, url: url, expectedSHA256: expectedSHA256, version: version, announcedSize: announcedSize)
        for _ in 0..<2 {  // a second attempt only when the server refuses the range or ignores If-Range
            let outcome = try attempt.run(
                curl, downloader: self, headers: headers, installed: cache.installed(model), progress: progress,
                isCancelled: isCancelled, failure: failure)
            switch outcome {
            case .upToDate(let installed): return installed
            case .complete: return try attempt.install(failure: failure)
            case .restart: attempt.discard()
            }
        }
        throw failure(.incomplete(detail: "the server would not send the rest of the file, nor the whole of it"))
    }
}

/// An exclusive lock on a file of a model's folder (`flock`), shared by every process using the cache.
private struct FolderLock {
    let descriptor: Int32

    /// Waits for the lock (another process may be downloading the same model), asking `isCancelled` every 0.1 s,
    /// so that a cancelled download does not wait for someone else's transfer to end. A symbolic link in place
    /// of the lock file is not followed.
    init(
        _ path: String, isCancelled: () -> Bool, failure: (ModelDownloadError.Reason) -> ModelDownloadError
    ) throws(ModelDownloadError) {
        descriptor = open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw failure(.fileSystem(path: path, detail: errorDescription(errno))) }
        while flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
            let code = errno
            guard code == EWOULDBLOCK || code == EINTR else {
                close(descriptor)
                throw failure(.fileSystem(path: path, detail: errorDescription(code)))
            }
            if isCancelled() {
                close(descriptor)
                throw failure(.cancelled)
            }
            if code == EWOULDBLOCK { usleep(100_000) }
        }
    }

    func release() {
        flock(descriptor, LOCK_UN)
        close(descriptor)
    }
}
