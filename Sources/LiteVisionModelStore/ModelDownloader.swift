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
        let transfer = perform(curl, url: url, sink: sink)
        if let reason = explain(transfer, sink: sink) { throw failure(reason) }
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

    /// The outcome of one transfer: libcurl's code, its error text and the last HTTP status.
    private struct Transfer {
        var code: LiteVisionCurlCode
        var message: String
        var status: Int
    }

    private func perform(_ curl: CurlLibrary, url: String, sink: DownloadSink) -> Transfer {
        let api = curl.api
        guard let handle = api.pointee.easy_init() else {
            return Transfer(code: -1, message: "curl_easy_init failed", status: 0)
        }
        defer { api.pointee.easy_cleanup(handle) }
        var errorBuffer = [CChar](repeating: 0, count: Int(kLiteVisionCurlErrorSize) + 1)
        let ok = LiteVisionCurlCode(kLiteVisionCurlOK)
        let code = errorBuffer.withUnsafeMutableBufferPointer { buffer -> LiteVisionCurlCode in
            let longs: [(Int, Int)] = [
                (kLiteVisionCurlOptNoSignal, 1), (kLiteVisionCurlOptNoProgress, 1), (kLiteVisionCurlOptFailOnError, 1),
                (kLiteVisionCurlOptFollowLocation, 1), (kLiteVisionCurlOptMaxRedirs, 10),
                (kLiteVisionCurlOptConnectTimeout, connectTimeout),
                (kLiteVisionCurlOptLowSpeedLimit, 1024), (kLiteVisionCurlOptLowSpeedTime, lowSpeedTime),
            ]
            var setup = ok
            for (option, value) in longs where setup == ok {
                setup = litevision_curl_setopt_long(api, handle, Int32(option), value)
            }
            let strings: [(Int, String)] = [
                (kLiteVisionCurlOptURL, url), (kLiteVisionCurlOptProtocolsStr, "http,https"),
                (kLiteVisionCurlOptRedirProtocolsStr, "http,https"), (kLiteVisionCurlOptUserAgent, "LiteVision"),
            ]
            for (option, value) in strings where setup == ok {
                setup = litevision_curl_setopt_string(api, handle, Int32(option), value)  // libcurl copies strings
            }
            if setup == ok {
                setup = litevision_curl_setopt_off_t(
                    api, handle, Int32(kLiteVisionCurlOptMaxFileSizeLarge), Int64(sizeLimit))
            }
            if setup == ok {
                setup = litevision_curl_setopt_pointer(
                    api, handle, Int32(kLiteVisionCurlOptErrorBuffer), buffer.baseAddress)
            }
            if setup == ok {
                setup = litevision_curl_setopt_write_function(api, handle, downloadSinkWrite)
            }
            guard setup == ok else { return setup }
            return withExtendedLifetime(sink) {
                let context = Unmanaged.passUnretained(sink).toOpaque()
                let set = litevision_curl_setopt_pointer(api, handle, Int32(kLiteVisionCurlOptWriteData), context)
                return set == ok ? api.pointee.easy_perform(handle) : set
            }
        }
        var status = 0
        _ = litevision_curl_getinfo_long(api, handle, Int32(kLiteVisionCurlInfoResponseCode), &status)
        var message = String(nulTerminated: errorBuffer)
        if message.isEmpty, code != ok { message = code < 0 ? "libcurl failed" : curl.text(code) }
        return Transfer(code: code, message: message, status: status)
    }

    /// Why a transfer failed, or `nil` when it succeeded.
    private func explain(_ transfer: Transfer, sink: DownloadSink) -> ModelDownloadError.Reason? {
        if sink.tooLarge { return .tooLarge(limit: sizeLimit) }
        if let error = sink.writeError { return .fileSystem(path: error.path, detail: error.reason) }
        switch Int(transfer.code) {
        case kLiteVisionCurlOK:
            return (200..<300).contains(transfer.status) ? nil : .httpStatus(transfer.status)
        case kLiteVisionCurlHTTPReturnedError:
            return .httpStatus(transfer.status)
        case kLiteVisionCurlFileSizeExceeded:
            return .tooLarge(limit: sizeLimit)
        case kLiteVisionCurlCouldntResolveHost, kLiteVisionCurlCouldntConnect, kLiteVisionCurlOperationTimedOut:
            return .unreachable(detail: transfer.message)
        case kLiteVisionCurlPartialFile, kLiteVisionCurlRecvError, kLiteVisionCurlGotNothing:
            return .incomplete(detail: transfer.message)
        default:
            return .transfer(code: Int(transfer.code), detail: transfer.message)
        }
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

    /// Takes `bytes`; returns how many were taken (fewer aborts the transfer).
    func write(_ bytes: UnsafeRawBufferPointer) -> Int {
        guard count + bytes.count <= limit else {
            tooLarge = true
            return 0
        }
        do {
            try file.write(bytes)
        } catch {
            writeError = error
            return 0
        }
        hash.update(bufferPointer: bytes)
        count += bytes.count
        return bytes.count
    }
}

/// libcurl's write callback (CURLOPT_WRITEFUNCTION); `userdata` is the ``DownloadSink``.
private let downloadSinkWrite: LiteVisionCurlWriteCallback = { data, size, count, userdata in
    guard let userdata else { return 0 }
    let sink = Unmanaged<DownloadSink>.fromOpaque(userdata).takeUnretainedValue()
    let total = size * count
    if total == 0 { return 0 }
    return sink.write(UnsafeRawBufferPointer(start: data, count: total))
}
