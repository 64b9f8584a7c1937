import CCurl
import Crypto
import FoundationEssentials
import LiteVisionSystem

/// Downloads built-in models into the cache folder, verified by their SHA-256 (the last step of ``ModelCatalog``).
///
/// The file is written to a uniquely named temporary file in the cache folder and renamed into place only when
/// its SHA-256 matches, so the final path never holds a partial or unverified file, and concurrent downloads of
/// the same model cannot corrupt the cache. Transfers use libcurl, loaded at run time (`libcurl.so.4`); only
/// HTTP and HTTPS are allowed, redirects are followed, and HTTP statuses of 400 or more are errors.
///
/// Models are fetched from their ``BuiltInModel/officialURL``, unless a base URL is given (``baseURL``, else the
/// `LITEVISION_MODEL_BASE_URL` environment variable): then from `BASE/<file name>`, e.g. a mirror.
package struct ModelDownloader: Sendable {
    /// Where downloaded models go (created when missing).
    package var cacheFolder: String
    /// Fetch `baseURL/<file name>` instead of the official URL; `nil`: `LITEVISION_MODEL_BASE_URL`, if set.
    package var baseURL: String?
    /// Files larger than this many bytes are refused (200 MB by default).
    package var sizeLimit: Int = 200_000_000
    /// Seconds allowed to connect.
    package var connectTimeout: Int = 20
    /// A transfer slower than 1 KB/s for this many seconds is abandoned.
    package var lowSpeedTime: Int = 30
    /// Seconds the whole transfer may take; nil, the default, for no limit (see
    /// ``RemoteModelDownloader/downloadDeadline``).
    package var downloadDeadline: Int?
    /// The libcurl library to load: a file name the dynamic loader searches for, or a path.
    package var libraryPath: String = "libcurl.so.4"

    /// A downloader into `cacheFolder` (by default ``ModelCatalog/cacheFolder``), from `baseURL` if given.
    package init(cacheFolder: String = ModelCatalog.cacheFolder, baseURL: String? = nil) {
        self.cacheFolder = cacheFolder
        self.baseURL = baseURL
    }

    /// The address `model` is downloaded from.
    package func url(of model: BuiltInModel) -> String {
        let env = ProcessInfo.processInfo.environment["LITEVISION_MODEL_BASE_URL"].flatMap { $0.isEmpty ? nil : $0 }
        guard var base = baseURL ?? env else { return model.officialURL }
        while base.hasSuffix("/") { base.removeLast() }
        return base + "/" + model.rawValue
    }

    /// Downloads `model` into the cache folder and returns its path there.
    package func download(_ model: BuiltInModel) throws(ModelDownloadError) -> String {
        do {
            return try download(from: url(of: model), sha256: model.sha256, fileName: model.rawValue)
        } catch {
            var error = error
            error.model = model
            throw error
        }
    }

    /// Downloads `url` to `fileName` in the cache folder, verified against `sha256` (hexadecimal), and returns
    /// its path. Nothing is left at the final path (or in temporary files) when anything fails.
    package func download(from url: String, sha256: String, fileName: String) throws(ModelDownloadError) -> String {
        let expected = sha256.lowercased()
        func failure(_ reason: ModelDownloadError.Reason) -> ModelDownloadError {
            ModelDownloadError(url: url, expectedSHA256: expected, reason: reason)
        }
        let curl: CurlLibrary
        switch CurlLibrary.load(libraryPath) {
        case .success(let library): curl = library
        case .failure(let error): throw failure(error.reason)
        }
        do {
            try FileManager.default.createDirectory(atPath: cacheFolder, withIntermediateDirectories: true)
        } catch {
            throw failure(.fileSystem(path: cacheFolder, detail: "the folder could not be created (\(error))"))
        }
        let finalPath = cacheFolder.hasSuffix("/") ? cacheFolder + fileName : cacheFolder + "/" + fileName
        let file: AtomicFile
        do {
            file = try AtomicFile(path: finalPath)
        } catch {
            throw failure(.fileSystem(path: error.path, detail: error.reason))
        }
        let sink = DownloadSink(file: file, limit: sizeLimit)
        let request = CurlTransfer.Request(
            url: url, sizeLimit: sizeLimit, connectTimeout: connectTimeout, lowSpeedTime: lowSpeedTime,
            deadline: downloadDeadline)
        let response = CurlTransfer.perform(curl, request, body: sink.write)
        if let reason = ModelDownloadError.Reason(
            response, sizeLimit: sizeLimit, writeError: sink.writeError, tooLarge: sink.tooLarge)
        {
            var error = failure(reason)
            error.serverMessage = response.errorBody.isEmpty ? nil : response.errorBody
            throw error
        }
        let actual = SHA256Digest.hex(sink.hash.finalize())
        guard actual == expected else {
            throw failure(.hashMismatch(expected: expected, actual: actual, byteCount: sink.count))
        }
        do {
            try file.commit()
        } catch {
            throw failure(.fileSystem(path: error.path, detail: error.reason))
        }
        return finalPath
    }
}

/// Receives the body: writes it to the temporary file and hashes it on the way, within the size limit.
private final class DownloadSink {
    let file: AtomicFile
    let limit: Int
    var hash = SHA256()
    var count = 0
    var tooLarge = false
    var writeError: SystemError?

    init(file: AtomicFile, limit: Int) {
        self.file = file
        self.limit = limit
    }

    /// Takes `bytes`; returns whether the transfer goes on.
    func write(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard count + bytes.count <= limit else {
            tooLarge = true
            return false
        }
        do {
            try file.write(bytes)
        } catch {
            writeError = error
            return false
        }
        hash.update(bufferPointer: bytes)
        count += bytes.count
        return true
    }
}
