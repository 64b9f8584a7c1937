import FoundationEssentials

/// How the model store's transfers go, whatever they fetch (a built-in model, a model at an address, a registry
/// model, a registry request): one value, handed down to every transfer, so that a limit is set in one place.
package struct TransferSettings: Sendable, Equatable {
    /// Model files larger than this many bytes are refused (500 MB by default).
    package var sizeLimit = 500_000_000
    /// Seconds allowed to connect.
    package var connectTimeout = 20
    /// A transfer slower than 1 KB/s for this many seconds is abandoned.
    package var lowSpeedTime = 30
    /// Seconds a registry request that is not a model file's transfer (a lookup, a listing, a promotion: small
    /// JSON answers) may take in all, connecting included: 60 by default. A registry that trickles its answer
    /// fails the request with ``ModelDownloadError/Reason/incomplete(detail:)`` instead of holding it for days.
    package var requestDeadline = CurlTransfer.defaultRequestDeadline
    /// Seconds one transfer of a model file may take in all; nil, the default, for no limit (a large model on a
    /// slow link may need long; a transfer slower than 1 KB/s for ``lowSpeedTime`` seconds is abandoned anyway).
    /// A transfer ended by it keeps its bytes: the next download resumes them.
    package var downloadDeadline: Int?
    /// A PEM file of certificates to trust instead of the system's, for a server with its own certificate
    /// (a registry started with `--tls-cert`): by default the `LITEVISION_CA_FILE` setting.
    package var caFile: String? = TransferSettings.configuredCAFile
    /// The libcurl library to load: a file name the dynamic loader searches for, or a path.
    package var libraryPath = CurlLibrary.defaultPath

    /// The defaults described above.
    package init() {}

    /// The `LITEVISION_CA_FILE` setting, if set.
    package static var configuredCAFile: String? {
        ProcessInfo.processInfo.environment["LITEVISION_CA_FILE"].flatMap { $0.isEmpty ? nil : $0 }
    }

    /// A request for `url` with these settings: at most `sizeLimit` body bytes (from `resumeFrom` on), ended
    /// after `deadline` seconds when given.
    func request(
        _ url: String, method: CurlTransfer.Method = .get, headers: [String] = [], resumeFrom: Int64 = 0,
        sizeLimit: Int, deadline: Int?
    ) -> CurlTransfer.Request {
        CurlTransfer.Request(
            url: url, method: method, headers: headers, resumeFrom: resumeFrom, sizeLimit: sizeLimit,
            connectTimeout: connectTimeout, lowSpeedTime: lowSpeedTime, deadline: deadline, caFile: caFile)
    }

    /// libcurl, loaded, after checking the certificate file; the reason when either cannot be used.
    func curl() -> Result<CurlLibrary, TransferProblem> {
        if let reason = CurlTransfer.certificateFileProblem(caFile) { return .failure(TransferProblem(reason)) }
        switch CurlLibrary.load(libraryPath) {
        case .success(let library): return .success(library)
        case .failure(let error): return .failure(TransferProblem(error.reason))
        }
    }
}

/// Why a step of a transfer failed (it could not start, see ``TransferSettings/curl()``; a file could not be
/// written; the server refused it), before the caller tells it as its own error, naming the file or the request.
struct TransferProblem: Error {
    let reason: ModelDownloadError.Reason
    /// What the server said about it, if anything (a registry's `{"error": "…"}` sentence, an error page).
    var serverMessage: String?

    init(_ reason: ModelDownloadError.Reason, serverMessage: String? = nil) {
        self.reason = reason
        self.serverMessage = serverMessage
    }
}
