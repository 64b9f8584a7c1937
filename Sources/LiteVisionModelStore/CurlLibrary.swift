import CCurl
import Synchronization

/// libcurl, loaded at run time with dlopen (see `Sources/CCurl`), so LiteVision neither links it nor needs it
/// unless a built-in model has to be downloaded.
struct CurlLibrary: @unchecked Sendable {  // the table is immutable and never freed
    /// The library looked for by default: Debian's `libcurl4` package.
    static let defaultPath = "libcurl.so.4"

    let api: UnsafePointer<LiteVisionCurlApi>

    private static let loaded = Mutex<[String: Result<CurlLibrary, CurlLoadFailure>]>([:])

    /// The library at `path` (a file name searched by the dynamic loader, or a path), loaded and initialized once
    /// per process; the failure, with what to install, when it cannot be loaded.
    static func load(_ path: String = defaultPath) -> Result<CurlLibrary, CurlLoadFailure> {
        loaded.withLock { cache in
            if let known = cache[path] { return known }
            let result = open(path)
            cache[path] = result
            return result
        }
    }

    private static func open(_ path: String) -> Result<CurlLibrary, CurlLoadFailure> {
        var message = [CChar](repeating: 0, count: 512)
        guard let api = litevision_curl_load(path, &message, message.count) else {
            let detail = String(nulTerminated: message)
            return .failure(CurlLoadFailure(reason: .libcurlUnavailable(library: path, detail: detail)))
        }
        // curl_global_init is not thread-safe in every libcurl: it runs here, once, under the lock.
        let code = api.pointee.global_init(Int(kLiteVisionCurlGlobalDefault))
        guard code == LiteVisionCurlCode(kLiteVisionCurlOK) else {
            return .failure(
                CurlLoadFailure(reason: .libcurlUnavailable(library: path, detail: "curl_global_init failed (\(code))"))
            )
        }
        return .success(CurlLibrary(api: api))
    }

    /// curl's text for an error code.
    func text(_ code: LiteVisionCurlCode) -> String { String(cString: api.pointee.easy_strerror(code)) }
}

/// Why libcurl could not be loaded.
struct CurlLoadFailure: Error {
    let reason: ModelDownloadError.Reason
}
