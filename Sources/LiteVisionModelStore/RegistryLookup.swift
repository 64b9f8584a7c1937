import FoundationEssentials
import LiteVisionSystem

/// Asks a LiteVision model registry which version of a model a client gets: `GET /v1/models/{name}?client=ID`.
/// The answer names the version, its SHA-256 and the address of its file.
struct RegistryLookup {
    /// The version the registry serves to the client.
    struct Served: Equatable {
        var version: Int
        var sha256: String
        /// The size of the file in bytes, as the registry announces it: the download stops past it.
        var size: Int
        /// The absolute address of the model file.
        var fileURL: String
    }

    /// The registry's answer is at most this many bytes.
    static let answerLimit = 1 << 20

    /// The address of the model's information for `clientID`.
    static func infoURL(registry: String, name: String, clientID: String) -> String {
        base(registry) + "/v1/models/" + name + "?client=" + RegistryClient.queryEscaped(clientID)
    }

    /// `registry` without a trailing `/`.
    static func base(_ registry: String) -> String {
        var base = registry
        while base.hasSuffix("/") { base.removeLast() }
        return base
    }

    /// Checks what a registry source names before anything is sent: a configured `http(s)` address and a model
    /// name of the registry's alphabet (so that it needs no escaping in a path).
    static func check(registry: String, name: String) -> ModelDownloadError.Reason? {
        check(registry: registry) ?? check(name: name)
    }

    /// Checks a registry address: configured, `http(s)`.
    static func check(registry: String) -> ModelDownloadError.Reason? {
        if registry.isEmpty {
            return .invalidSource(
                detail:
                    "no registry is configured: set LITEVISION_REGISTRY to the registry's address (for example https://models.example.com:8470), or use RemoteModelSource.registry(_:name:)"
            )
        }
        guard registry.hasPrefix("http://") || registry.hasPrefix("https://") else {
            return .invalidSource(
                detail:
                    "the registry address \"\(URLCredentials.masked(String(registry.prefix(200))))\" must start with https:// or http://"
            )
        }
        return nil
    }

    /// Checks a read or publish token before it is put in an `Authorization` header: visible ASCII only, so that
    /// a line break (a token file edited on Windows, a pasted value) can never add a header or a request of its
    /// own. The token itself is not repeated in the message.
    static func check(token: String?) -> ModelDownloadError.Reason? {
        guard let token else { return nil }
        guard !token.isEmpty, token.utf8.allSatisfy({ $0 > 32 && $0 < 127 }) else {
            return .invalidSource(
                detail:
                    "the registry token holds a space, a line break or another character no token has (tokens are lvr_ and 64 hexadecimal digits): check LITEVISION_REGISTRY_TOKEN or the read token given to RemoteModelSource.registry"
            )
        }
        return nil
    }

    /// Checks a model name: the registry's alphabet, so that it needs no escaping in a path.
    static func check(name: String) -> ModelDownloadError.Reason? {
        guard RegistryName.isValid(name) else {
            return .invalidSource(
                detail:
                    "\"\(name.prefix(80))\" is not a registry model name: 1 to 64 letters, digits, '.', '_' or '-', and no '..'"
            )
        }
        return nil
    }

    /// Fetches and reads the registry's answer.
    static func served(
        _ curl: CurlLibrary, registry: String, name: String, token: String?, clientID: String,
        settings: TransferSettings, isCancelled: () -> Bool
    ) throws(TransferProblem) -> Served {
        let request = settings.request(
            infoURL(registry: registry, name: name, clientID: clientID),
            headers: token.map { ["Authorization: Bearer \($0)"] } ?? [], sizeLimit: answerLimit,
            deadline: settings.requestDeadline)
        let answer = try Self.answer(curl, request, isCancelled: isCancelled)
        struct Answer: Decodable {
            struct Version: Decodable {
                var version: Int
                var sha256: String
                var size: Int
            }
            var served: Version
            var servedBlob: String
        }
        guard let decoded = try? JSONDecoder().decode(Answer.self, from: Data(answer)) else {
            throw TransferProblem(
                .invalidRegistryResponse(detail: "the model information is not the JSON a LiteVision registry sends"))
        }
        let sha256 = decoded.served.sha256
        guard sha256.utf8.count == 64, sha256.utf8.allSatisfy({ (48...57).contains($0) || (97...102).contains($0) })
        else {
            throw TransferProblem(
                .invalidRegistryResponse(detail: "the served version's SHA-256 is not 64 hexadecimal digits"))
        }
        // The file is the blob of that SHA-256 on the same registry: an absolute address elsewhere is not
        // followed (a registry that redirects to a CDN does so on the blob request, which is followed).
        guard decoded.servedBlob == "/v1/blobs/" + sha256 else {
            throw TransferProblem(
                .invalidRegistryResponse(detail: "the served file is not the blob of the served version"))
        }
        // The size bounds the transfer of the file (a registry that sends more is not believed).
        guard decoded.served.size > 0, decoded.served.version > 0 else {
            throw TransferProblem(
                .invalidRegistryResponse(detail: "the served version's number and size must be positive numbers"))
        }
        return Served(
            version: decoded.served.version, sha256: sha256, size: decoded.served.size,
            fileURL: base(registry) + decoded.servedBlob)
    }

    /// Performs a request whose answer is read into memory (at most `request.sizeLimit` bytes): the answer of a
    /// 2xx response, else the failure, with the registry's own sentence as the server message.
    static func answer(
        _ curl: CurlLibrary, _ request: CurlTransfer.Request, isCancelled: () -> Bool = { false }
    ) throws(TransferProblem) -> [UInt8] {
        var answer: [UInt8] = []
        var tooLarge = false
        let response = CurlTransfer.perform(
            curl, request,
            body: { bytes in
                guard answer.count + bytes.count <= request.sizeLimit else {
                    tooLarge = true
                    return false
                }
                answer.append(contentsOf: bytes)
                return true
            }, shouldCancel: isCancelled)
        if response.uploadError != 0 {
            throw TransferProblem(.fileSystem(path: "the model file", detail: errorDescription(response.uploadError)))
        }
        if let reason = ModelDownloadError.Reason(
            response, sizeLimit: request.sizeLimit, writeError: nil, tooLarge: tooLarge)
        {
            // The registry answers errors as {"error": "…"}: keep the sentence.
            throw TransferProblem(reason, serverMessage: errorMessage(response.errorBody))
        }
        return answer
    }

    /// The `error` field of a registry's JSON error body, else the body itself; nil when empty.
    static func errorMessage(_ body: String) -> String? {
        struct ErrorAnswer: Decodable { var error: String }
        if let decoded = try? JSONDecoder().decode(ErrorAnswer.self, from: Data(body.utf8)) { return decoded.error }
        return body.isEmpty ? nil : body
    }
}
