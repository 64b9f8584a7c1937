import CCurl
import LiteVisionSystem

/// One HTTP(S) request through libcurl, streamed both ways: the transfer under every download of the model store
/// and under the registry client (a GET, a POST whose body is read from a file, or a DELETE).
///
/// Only HTTP and HTTPS are allowed (also after redirects, which are followed, at most 10). The body of a
/// response with a status of 400 or more is not handed to `body`: its first 4 KiB are kept as the server's
/// message and the transfer ends there (a server could send an error body forever). A transfer slower than
/// 1 KB/s for `lowSpeedTime` seconds is abandoned, one that goes on past its `deadline` too (a server trickling
/// just above 1 KB/s would otherwise keep it going for days), and `shouldCancel` is asked about once a second (and
/// on every chunk), so a cancelled transfer stops within about a second even when the server sends nothing.
struct CurlTransfer {
    /// The limit in seconds on the whole of a registry request that is not a model file's transfer (a lookup, a
    /// listing, a promotion): 60. Their answers are small; a model file's transfer has no limit by default.
    static let defaultRequestDeadline = 60

    /// The request method and, for a POST, where its body comes from.
    enum Method {
        case get
        /// A POST of `size` bytes read from the open file `descriptor` (from its current offset); `-1` for no body.
        case post(descriptor: Int32, size: Int64)
        case delete
    }

    /// What to fetch.
    struct Request {
        var url: String
        var method: Method = .get
        /// Extra request headers, `"Name: value"`.
        var headers: [String] = []
        /// Ask for the body from this byte on (an HTTP `Range` request); 0 for the whole body.
        var resumeFrom: Int64 = 0
        /// The most body bytes accepted (counted from `resumeFrom`).
        var sizeLimit: Int
        var connectTimeout: Int
        var lowSpeedTime: Int
        /// Seconds the whole transfer may take, connecting included; nil for no limit.
        var deadline: Int? = nil
        /// A PEM file of certificates to trust instead of the system's (a registry with its own certificate).
        var caFile: String? = nil
    }

    /// How the transfer ended.
    struct Response {
        /// libcurl's result code (`kLiteVisionCurlOK` when the transfer completed).
        var code: LiteVisionCurlCode
        /// libcurl's explanation, when it failed.
        var message: String
        /// The HTTP status of the last response (after redirects); 0 when none arrived.
        var status: Int
        /// The headers of the last response, names in lower case.
        var headers: [String: String]
        /// The start of the body of an error response (status 400 or more), as text.
        var errorBody: String
        /// Whether `shouldCancel` asked to stop.
        var cancelled: Bool
        /// The error (errno) reading a POST's body from its file, or 0.
        var uploadError: Int32 = 0
        /// Whether the transfer was ended after the first ``TransferContext/errorBodyLimit`` bytes of an error
        /// response's body (libcurl then reports a write error, but the answer is the HTTP status).
        var errorBodyCut = false
        /// The request's `deadline`, when the transfer was ended for going on past it.
        var exceededDeadline: Int? = nil
    }

    /// Why `caFile` cannot be handed to libcurl (it must be a readable regular file: a FIFO would block the TLS
    /// setup forever), or nil when it is fine or not given.
    static func certificateFileProblem(_ caFile: String?) -> ModelDownloadError.Reason? {
        guard let caFile else { return nil }
        do {
            _ = try FileContents.requireRegularFile(atPath: caFile)
            return nil
        } catch {
            return .invalidSource(detail: "the certificate file cannot be used: \(error)")
        }
    }

    /// Performs `request`, giving each chunk of a successful response's body to `body` (return `false` to stop).
    /// `onResponse` sees the status and headers of a response below 400 once, before its first body byte, and
    /// may stop the transfer too.
    static func perform(
        _ curl: CurlLibrary, _ request: Request,
        onResponse: (_ status: Int, _ headers: [String: String]) -> Bool = { _, _ in true },
        body: (UnsafeRawBufferPointer) -> Bool, shouldCancel: () -> Bool = { false }
    ) -> Response {
        let api = curl.api
        guard let handle = api.pointee.easy_init() else {
            return Response(
                code: -1, message: "curl_easy_init failed", status: 0, headers: [:], errorBody: "", cancelled: false)
        }
        defer { api.pointee.easy_cleanup(handle) }
        var headerList: OpaquePointer? = nil
        // No "Expect: 100-continue" round trip before a body.
        for header in request.headers + ["Expect:"] { headerList = api.pointee.slist_append(headerList, header) }
        defer { api.pointee.slist_free_all(headerList) }

        var errorBuffer = [CChar](repeating: 0, count: Int(kLiteVisionCurlErrorSize) + 1)
        let ok = LiteVisionCurlCode(kLiteVisionCurlOK)
        return withoutActuallyEscaping(body) { body in
            withoutActuallyEscaping(shouldCancel) { shouldCancel in
                withoutActuallyEscaping(onResponse) { onResponse in
                    let context = TransferContext(onResponse: onResponse, body: body, shouldCancel: shouldCancel)
                    context.deadline = request.deadline.map { ContinuousClock.now + .seconds($0) }
                    if case .post(let descriptor, _) = request.method { context.uploadDescriptor = descriptor }
                    let code = errorBuffer.withUnsafeMutableBufferPointer { buffer -> LiteVisionCurlCode in
                        var setup = ok
                        func set(_ option: Int, _ value: Int) {
                            if setup == ok { setup = litevision_curl_setopt_long(api, handle, Int32(option), value) }
                        }
                        func set(_ option: Int, _ value: String) {
                            if setup == ok { setup = litevision_curl_setopt_string(api, handle, Int32(option), value) }
                        }
                        func set(_ option: Int, pointer: UnsafeMutableRawPointer?) {
                            if setup == ok {
                                setup = litevision_curl_setopt_pointer(api, handle, Int32(option), pointer)
                            }
                        }
                        set(kLiteVisionCurlOptNoSignal, 1)
                        set(kLiteVisionCurlOptNoProgress, 0)  // the transfer-info callback polls for cancellation
                        set(kLiteVisionCurlOptFollowLocation, 1)
                        set(kLiteVisionCurlOptMaxRedirs, 10)
                        // 512 KiB per read instead of libcurl's 16 KiB: fewer callbacks, writes and hash calls.
                        set(kLiteVisionCurlOptBufferSize, 512 << 10)
                        set(kLiteVisionCurlOptConnectTimeout, request.connectTimeout)
                        set(kLiteVisionCurlOptLowSpeedLimit, 1024)
                        set(kLiteVisionCurlOptLowSpeedTime, request.lowSpeedTime)
                        set(kLiteVisionCurlOptURL, request.url)  // libcurl copies strings
                        set(kLiteVisionCurlOptProtocolsStr, "http,https")
                        set(kLiteVisionCurlOptRedirProtocolsStr, "http,https")
                        set(kLiteVisionCurlOptUserAgent, "LiteVision")
                        set(kLiteVisionCurlOptErrorBuffer, pointer: UnsafeMutableRawPointer(buffer.baseAddress))
                        set(kLiteVisionCurlOptHTTPHeader, pointer: UnsafeMutableRawPointer(headerList))
                        if let caFile = request.caFile { set(kLiteVisionCurlOptCAInfo, caFile) }
                        switch request.method {
                        case .get:
                            break
                        case .post(_, let size):
                            set(kLiteVisionCurlOptPost, 1)
                            if setup == ok {
                                setup = litevision_curl_setopt_off_t(
                                    api, handle, Int32(kLiteVisionCurlOptPostFieldSizeLarge), max(0, size))
                            }
                            if setup == ok {
                                setup = litevision_curl_setopt_read_function(api, handle, transferReadCallback)
                            }
                        case .delete:
                            set(kLiteVisionCurlOptCustomRequest, "DELETE")
                        }
                        if setup == ok {
                            setup = litevision_curl_setopt_off_t(
                                api, handle, Int32(kLiteVisionCurlOptMaxFileSizeLarge),
                                request.resumeFrom + Int64(request.sizeLimit))
                        }
                        if setup == ok, request.resumeFrom > 0 {
                            setup = litevision_curl_setopt_off_t(
                                api, handle, Int32(kLiteVisionCurlOptResumeFromLarge), request.resumeFrom)
                        }
                        if setup == ok {
                            setup = litevision_curl_setopt_write_function(api, handle, transferBodyCallback)
                        }
                        if setup == ok {
                            setup = litevision_curl_setopt_header_function(api, handle, transferHeaderCallback)
                        }
                        if setup == ok {
                            setup = litevision_curl_setopt_xferinfo_function(api, handle, transferInfoCallback)
                        }
                        guard setup == ok else { return setup }
                        return withExtendedLifetime(context) {
                            let pointer = Unmanaged.passUnretained(context).toOpaque()
                            set(kLiteVisionCurlOptWriteData, pointer: pointer)
                            set(kLiteVisionCurlOptHeaderData, pointer: pointer)
                            set(kLiteVisionCurlOptXferInfoData, pointer: pointer)
                            set(kLiteVisionCurlOptReadData, pointer: pointer)
                            return setup == ok ? api.pointee.easy_perform(handle) : setup
                        }
                    }
                    var status = 0
                    _ = litevision_curl_getinfo_long(api, handle, Int32(kLiteVisionCurlInfoResponseCode), &status)
                    var message = String(nulTerminated: errorBuffer)
                    if message.isEmpty, code != ok { message = code < 0 ? "libcurl failed" : curl.text(code) }
                    return Response(
                        code: code, message: message, status: status, headers: context.headers,
                        errorBody: String(decoding: context.errorBody, as: UTF8.self),
                        cancelled: context.cancelled, uploadError: context.uploadError,
                        errorBodyCut: context.errorBodyCut,
                        exceededDeadline: context.deadlinePassed ? request.deadline : nil)
                }
            }
        }
    }
}

/// What the C callbacks of one transfer share; used by one transfer on one thread.
private final class TransferContext {
    let onResponse: (Int, [String: String]) -> Bool
    let body: (UnsafeRawBufferPointer) -> Bool
    let shouldCancel: () -> Bool
    var status = 0
    var headers: [String: String] = [:]
    var errorBody: [UInt8] = []
    var cancelled = false
    /// Whether `onResponse` has seen the response whose body is arriving.
    var responseSeen = false
    /// The file a POST's body is read from (-1: none).
    var uploadDescriptor: Int32 = -1
    /// The error reading it, if one happened.
    var uploadError: Int32 = 0
    /// Whether the transfer was stopped once the error body reached ``errorBodyLimit``.
    var errorBodyCut = false
    /// When the transfer must have ended, if it has a deadline.
    var deadline: ContinuousClock.Instant?
    /// Whether it was stopped for going on past ``deadline``.
    var deadlinePassed = false

    /// How much of an error response's body is kept.
    static let errorBodyLimit = 4096

    init(
        onResponse: @escaping (Int, [String: String]) -> Bool, body: @escaping (UnsafeRawBufferPointer) -> Bool,
        shouldCancel: @escaping () -> Bool
    ) {
        self.onResponse = onResponse
        self.body = body
        self.shouldCancel = shouldCancel
    }

    func header(_ line: UnsafeRawBufferPointer) {
        let text = trimmed(String(decoding: line, as: UTF8.self))
        if text.hasPrefix("HTTP/") {
            // A new response (the first, or one after a redirect or a 100 Continue): forget the previous one.
            headers = [:]
            responseSeen = false
            status = text.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
        } else if let colon = text.firstIndex(of: ":") {
            let name = text[..<colon].lowercased()
            headers[name] = trimmed(text[text.index(after: colon)...])
        }
    }

    func receive(_ bytes: UnsafeRawBufferPointer) -> Bool {
        if status >= 400 {
            errorBody.append(contentsOf: bytes.prefix(max(0, Self.errorBodyLimit - errorBody.count)))
            // The message is kept; the rest is not waited for, since a server may send an error body forever.
            guard errorBody.count < Self.errorBodyLimit else {
                errorBodyCut = true
                return false
            }
            return true
        }
        if !responseSeen {
            responseSeen = true
            guard onResponse(status, headers) else { return false }
        }
        return body(bytes)
    }
}

/// `text` without white space (spaces, tabs, line ends) at either end.
private func trimmed(_ text: some StringProtocol) -> String {
    // Character.isWhitespace, since "\r\n" is one Character in Swift.
    String(text.drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
}

/// libcurl's body callback (CURLOPT_WRITEFUNCTION); `userdata` is the ``TransferContext``.
private let transferBodyCallback: LiteVisionCurlWriteCallback = { data, size, count, userdata in
    guard let userdata else { return 0 }
    let context = Unmanaged<TransferContext>.fromOpaque(userdata).takeUnretainedValue()
    let total = size * count
    if total == 0 { return 0 }
    return context.receive(UnsafeRawBufferPointer(start: data, count: total)) ? total : 0
}

/// libcurl's read callback (CURLOPT_READFUNCTION): the next bytes of a POST's body from its file.
private let transferReadCallback: LiteVisionCurlWriteCallback = { data, size, count, userdata in
    let abort = 0x1000_0000  // CURL_READFUNC_ABORT
    guard let userdata else { return abort }
    let context = Unmanaged<TransferContext>.fromOpaque(userdata).takeUnretainedValue()
    guard context.uploadDescriptor >= 0 else { return 0 }
    while true {
        let got = Platform.read(context.uploadDescriptor, UnsafeMutableRawPointer(data), size * count)
        if got >= 0 { return got }
        if errno != EINTR {
            context.uploadError = errno
            return abort
        }
    }
}

/// libcurl's header callback (CURLOPT_HEADERFUNCTION): one header line at a time.
private let transferHeaderCallback: LiteVisionCurlWriteCallback = { data, size, count, userdata in
    guard let userdata else { return 0 }
    let total = size * count
    Unmanaged<TransferContext>.fromOpaque(userdata).takeUnretainedValue()
        .header(UnsafeRawBufferPointer(start: data, count: total))
    return total
}

/// libcurl's transfer-info callback (CURLOPT_XFERINFOFUNCTION, called at least once a second): stops the transfer
/// once it is cancelled or past its deadline.
private let transferInfoCallback: LiteVisionCurlXferInfoCallback = { userdata, _, _, _, _ in
    guard let userdata else { return 0 }
    let context = Unmanaged<TransferContext>.fromOpaque(userdata).takeUnretainedValue()
    if context.shouldCancel() {
        context.cancelled = true
        return 1
    }
    if let deadline = context.deadline, ContinuousClock.now >= deadline {
        context.deadlinePassed = true
        return 1
    }
    return 0
}
