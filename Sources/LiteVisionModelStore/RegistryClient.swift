import FoundationEssentials
import LiteVisionSystem

/// Requests to a LiteVision model registry's HTTP API (the `litevision models` commands): list, describe,
/// publish (the model file streamed from disk), promote, roll out, delete. Answers are the registry's JSON;
/// failures are ``RegistryRequestError``s naming the cause, with the registry's own sentence as the server message.
package struct RegistryClient: Sendable {
    /// The registry's address, for example `http://127.0.0.1:8470`.
    package var registry: String
    /// The bearer token sent with every request, if any.
    package var token: String?
    /// The timeouts, certificates and libcurl of every request. Requests other than a publication may take
    /// ``TransferSettings/requestDeadline`` seconds in all; a publication streams a model file and has no limit but
    /// ``TransferSettings/lowSpeedTime``.
    package var settings = TransferSettings()
    /// Answers larger than this are refused.
    package var answerLimit = 16 << 20

    /// A client of `registry`, sending `token`, trusting the certificates in `caFile` when given.
    package init(registry: String, token: String? = nil, caFile: String? = nil) {
        self.registry = registry
        self.token = token
        settings.caFile = caFile
    }

    /// `GET /v1/models`.
    package func list() throws(RegistryRequestError) -> [UInt8] { try send(.get, "/v1/models") }

    /// `GET /v1/models/{name}` (with the client id the served version is chosen for).
    package func info(_ name: String, clientID: String? = nil) throws(RegistryRequestError) -> [UInt8] {
        try checked(name)
        return try send(.get, "/v1/models/\(name)" + (clientID.map { "?client=\(Self.queryEscaped($0))" } ?? ""))
    }

    /// `POST /v1/models/{name}/versions` with the file at `path` as the body, streamed from disk.
    package func publish(
        _ name: String, file path: String, isPrivate: Bool? = nil
    ) throws(RegistryRequestError) -> [UInt8] {
        try checked(name)
        let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else { throw failure(.fileSystem(path: path, detail: errorDescription(errno))) }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else {
            throw failure(.fileSystem(path: path, detail: "not a regular file"))
        }
        let query = isPrivate.map { "?private=\($0)" } ?? ""
        return try send(
            .post(descriptor: descriptor, size: Int64(status.st_size)), "/v1/models/\(name)/versions\(query)")
    }

    /// `POST /v1/models/{name}/promote?version=N`.
    package func promote(_ name: String, version: Int) throws(RegistryRequestError) -> [UInt8] {
        try checked(name)
        return try send(.post(descriptor: -1, size: 0), "/v1/models/\(name)/promote?version=\(version)")
    }

    /// `POST /v1/models/{name}/rollout?version=N&percent=P`.
    package func rollout(_ name: String, version: Int, percent: Int) throws(RegistryRequestError) -> [UInt8] {
        try checked(name)
        return try send(
            .post(descriptor: -1, size: 0), "/v1/models/\(name)/rollout?version=\(version)&percent=\(percent)")
    }

    /// `DELETE /v1/models/{name}/versions/{version}`.
    package func delete(_ name: String, version: Int) throws(RegistryRequestError) {
        try checked(name)
        _ = try send(.delete, "/v1/models/\(name)/versions/\(version)")
    }

    private func checked(_ name: String) throws(RegistryRequestError) {
        if let reason = RegistryLookup.check(registry: registry, name: name) { throw failure(reason) }
    }

    private func failure(_ reason: ModelDownloadError.Reason, url: String? = nil) -> RegistryRequestError {
        RegistryRequestError(url: url ?? registry, reason: reason)
    }

    private func send(_ method: CurlTransfer.Method, _ path: String) throws(RegistryRequestError) -> [UInt8] {
        if let reason = RegistryLookup.check(registry: registry) ?? RegistryLookup.check(token: token) {
            throw failure(reason)
        }
        let curl: CurlLibrary
        switch settings.curl() {
        case .success(let library): curl = library
        case .failure(let problem): throw failure(problem.reason)
        }
        let url = RegistryLookup.base(registry) + path
        var isPublication = false
        if case .post(let descriptor, _) = method, descriptor >= 0 { isPublication = true }
        let request = settings.request(
            url, method: method, headers: token.map { ["Authorization: Bearer \($0)"] } ?? [],
            sizeLimit: answerLimit, deadline: isPublication ? nil : settings.requestDeadline)
        do throws(TransferProblem) {
            return try RegistryLookup.answer(curl, request)
        } catch {
            throw RegistryRequestError(url: url, reason: error.reason, serverMessage: error.serverMessage)
        }
    }

    /// `text` with everything but unreserved characters percent-encoded, for a query value.
    static func queryEscaped(_ text: String) -> String {
        var escaped = ""
        for byte in text.utf8 {
            if (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
                || byte == 0x2D || byte == 0x2E || byte == 0x5F || byte == 0x7E
            {
                escaped.append(Character(Unicode.Scalar(byte)))
            } else {
                escaped += "%" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2)
            }
        }
        return escaped
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
