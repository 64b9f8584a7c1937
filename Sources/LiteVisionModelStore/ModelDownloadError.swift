import CCurl
import LiteVisionSystem

/// Why a model file could not be downloaded; its description says what failed and what to do.
public struct ModelDownloadError: Error, Sendable, CustomStringConvertible {
    /// What went wrong.
    public enum Reason: Sendable, Equatable {
        /// libcurl (`libcurl.so.4`, Debian package `libcurl4`) could not be loaded.
        case libcurlUnavailable(library: String, detail: String)
        /// The server could not be reached: no network, connection refused, timeout.
        case unreachable(detail: String)
        /// The server's name could not be resolved (DNS).
        case hostNotFound(detail: String)
        /// The TLS connection failed: handshake, or a certificate that does not verify.
        case tls(detail: String)
        /// The server answered with an HTTP error status (400 or more).
        case httpStatus(Int)
        /// The transfer stopped before the whole file arrived (cut off, or ended for going on past its time limit).
        case incomplete(detail: String)
        /// The file is larger than the downloader's size limit (in bytes).
        case tooLarge(limit: Int)
        /// The file arrived but its SHA-256 is not the expected one (it was deleted).
        case hashMismatch(expected: String, actual: String, byteCount: Int)
        /// The file could not be written or moved into place.
        case fileSystem(path: String, detail: String)
        /// The disk holding the cache is full.
        case noSpace(path: String)
        /// What arrived is not a TFLite model (for example an HTML error page served with status 200).
        case notATFLiteModel(detail: String)
        /// The download was not started because its conditions are not met (for example cellular access
        /// not allowed while the network is cellular).
        case conditionsNotMet(String)
        /// The download was cancelled.
        case cancelled
        /// Another transfer error reported by libcurl.
        case transfer(code: Int, detail: String)
        /// The source cannot be downloaded as given (no registry configured, an invalid model name or address).
        case invalidSource(detail: String)
        /// The model registry's answer is not what a LiteVision registry sends.
        case invalidRegistryResponse(detail: String)
    }

    /// The built-in model that was downloaded, if it was one.
    public var model: BuiltInModel?
    /// The folders searched for the model before it was downloaded, in order.
    public var searchedFolders: [String] = []
    /// The address downloaded.
    public var url: String
    /// What the server said with an error status (the start of its response body), if anything.
    public var serverMessage: String?
    /// The SHA-256 the file must have.
    public var expectedSHA256: String
    /// What went wrong.
    public var reason: Reason

    /// Creates an error.
    public init(model: BuiltInModel? = nil, url: String, expectedSHA256: String, reason: Reason) {
        self.model = model
        self.url = url
        self.expectedSHA256 = expectedSHA256
        self.reason = reason
    }

    /// Why the download failed and, for a built-in model, where to put the file instead.
    public var description: String {
        guard let model else { return cause }
        let folders = searchedFolders.isEmpty ? "" : "is not in \(searchedFolders.joined(separator: ", ")), and "
        return """
            The built-in model \(model.rawValue) \(folders)downloading it failed: \(cause). Put the file in one of \
            these folders (or point the options' modelDirectory or LITEVISION_MODEL_DIR at a folder that has it); it \
            is published at \(model.officialURL) (SHA-256 \(model.sha256)).
            """
    }

    /// Why the download failed, in one sentence.
    public var cause: String {
        let url = URLCredentials.masked(url)  // a password in the URL is never shown
        return switch reason {
        case .libcurlUnavailable(let library, let detail):
            "\(library) could not be loaded (\(detail)); install libcurl (Debian: apt-get install libcurl4) to download models"
        case .unreachable(let detail):
            "\(url) could not be reached (\(detail)); is this machine online?"
        case .httpStatus(let status):
            "the server answered HTTP \(status) for \(url)"
                + (serverMessage.map { $0.isEmpty ? "" : " (\"\($0.prefix(300))\")" } ?? "")
        case .hostNotFound(let detail):
            "the server's name in \(url) could not be resolved (\(detail)); check the address and the network"
        case .tls(let detail):
            "the secure connection to \(url) failed (\(detail)); check the server's certificate"
        case .noSpace(let path):
            "the disk holding \(path) is full; nothing was installed"
        case .notATFLiteModel(let detail):
            "what \(url) sent is not a TFLite model (\(detail)); nothing was installed"
        case .conditionsNotMet(let detail):
            "the download of \(url) was not started: \(detail)"
        case .cancelled:
            "the download of \(url) was cancelled"
        case .incomplete(let detail):
            "the download of \(url) stopped before the end (\(detail))"
        case .tooLarge(let limit):
            "\(url) is larger than the \(limit)-byte limit"
        case .hashMismatch(let expected, let actual, let byteCount):
            "the file downloaded from \(url) (\(byteCount) bytes) has SHA-256 \(actual), not the expected \(expected); it was deleted"
        case .fileSystem(let path, let detail):
            "\(path) could not be written: \(detail)"
        case .transfer(let code, let detail):
            "the download of \(url) failed (libcurl error \(code): \(detail))"
        case .invalidSource(let detail):
            "\(url) cannot be downloaded: \(detail)"
        case .invalidRegistryResponse(let detail):
            "the registry's answer for \(url) cannot be used: \(detail)"
        }
    }
}

extension ModelDownloadError.Reason {
    /// Why a transfer failed, or `nil` when it succeeded (a 2xx response): the sink's own failures first
    /// (the size limit, a write error), then libcurl's code, then the HTTP status.
    init?(_ response: CurlTransfer.Response, sizeLimit: Int, writeError: SystemError?, tooLarge: Bool) {
        if tooLarge {
            self = .tooLarge(limit: sizeLimit)
            return
        }
        if let writeError {
            self =
                writeError.code == ENOSPC
                ? .noSpace(path: writeError.path) : .fileSystem(path: writeError.path, detail: writeError.reason)
            return
        }
        if response.cancelled {
            self = .cancelled
            return
        }
        if let deadline = response.exceededDeadline {
            self = .incomplete(detail: "it went on past its limit of \(deadline) seconds for the whole transfer")
            return
        }
        if response.errorBodyCut {  // the transfer was ended after the start of an error answer
            self = .httpStatus(response.status)
            return
        }
        switch Int(response.code) {
        case kLiteVisionCurlOK, kLiteVisionCurlHTTPReturnedError:
            if (200..<300).contains(response.status) { return nil }
            self = .httpStatus(response.status)
        case kLiteVisionCurlFileSizeExceeded:
            self = .tooLarge(limit: sizeLimit)
        case kLiteVisionCurlCouldntResolveHost:
            self = .hostNotFound(detail: response.message)
        case kLiteVisionCurlSSLConnectError, kLiteVisionCurlPeerFailedVerification:
            self = .tls(detail: response.message)
        case kLiteVisionCurlCouldntConnect, kLiteVisionCurlOperationTimedOut:
            self = .unreachable(detail: response.message)
        case kLiteVisionCurlPartialFile, kLiteVisionCurlRecvError, kLiteVisionCurlGotNothing:
            self = .incomplete(detail: response.message)
        default:
            self = .transfer(code: Int(response.code), detail: response.message)
        }
    }
}
