import FoundationEssentials
import Hummingbird
import Logging
import LiteVisionRegistryStorage
import LiteVisionSystem
import NIOCore

/// The registry's HTTP API on a Hummingbird router. JSON in and out; errors are `{"error": "…"}` with the
/// status of the ``RegistryError``.
///
/// | method and path | what it does | token |
/// |---|---|---|
/// | `GET /health` | liveness: 200 while the process runs | — |
/// | `GET /ready` | readiness: 200 when the storage answers and its schema is ready, else 503 | — |
/// | `GET /metrics` | Prometheus metrics (``RegistryMetrics``) | — |
/// | `GET /openapi.yaml` | the OpenAPI 3.1 document of this API (`openapi.yaml`) | — |
/// | `GET /v1/models` | every model the caller may read, with its latest version and rollout | — |
/// | `GET /v1/models/{name}?client=ID` | the model, its versions, and the one this client gets (`served`) | read¹ |
/// | `POST /v1/models/{name}/versions[?private=true]` | publish the body (a `.tflite` file) as the next version | publish |
/// | `POST /v1/models/{name}/promote?version=N` | make version N the latest | publish |
/// | `POST /v1/models/{name}/rollout?version=N&percent=P` | serve N to P % of clients | publish |
/// | `DELETE /v1/models/{name}/versions/{version}` | delete a version | publish |
/// | `GET`, `HEAD /v1/blobs/{sha256}` | a model file by content: `ETag`, `If-None-Match`, `Range`, immutable | read¹ |
///
/// ¹ Only for a private model: a publish token, a read token for every model, or a read token for that model.
/// Public models are read without a token. A request for a private model without a token is answered 401, with
/// a token that does not grant it 403; a token that is not one of this registry's is 401 on every route.
///
/// The routes keep nothing a replica beside them would need: everything is in the ``RegistryService``'s stores,
/// and what they cache in memory is keyed by the metadata store's generation (so a change made through another
/// replica is seen at once).
package struct RegistryRoutes: Sendable {
    /// The registry, on its storage.
    package let service: RegistryService
    /// Uploads larger than this many bytes are refused as soon as they pass it.
    package let uploadLimit: Int
    /// Where requests, bytes served and downloads are counted.
    package let metrics: RegistryMetrics
    /// Encoded answers, blob owners and small blobs, kept until the registry changes.
    let cache: ResponseCache

    /// The routes of `service`. Model files are kept in memory up to `blobMemory` bytes in all (each at most
    /// 32 MiB; 0 keeps none: every download is read from the store).
    package init(
        service: RegistryService, uploadLimit: Int = 200_000_000, metrics: RegistryMetrics = RegistryMetrics(),
        blobMemory: Int = 64 << 20
    ) {
        self.service = service
        self.uploadLimit = uploadLimit
        self.metrics = metrics
        cache = ResponseCache(blobSizeLimit: min(32 << 20, blobMemory), blobMemoryLimit: blobMemory)
    }

    /// The routes of the embedded registry `registry`.
    package init(registry: ModelRegistry, uploadLimit: Int = 200_000_000, metrics: RegistryMetrics = RegistryMetrics())
    {
        self.init(service: registry.service, uploadLimit: uploadLimit, metrics: metrics)
    }

    /// Adds the routes to `router`.
    package func add(to router: Router<RegistryRequestContext>) {
        router.add(middleware: RequestCounter(metrics: metrics))
        router.get("health") { _, _ in Self.json(["status": "ok"]) }
        router.get("ready") { _, _ in
            do throws(RegistryError) {
                try await service.metadata.checkReady()
                return Self.json(["status": "ready"])
            } catch {
                guard case .unavailable = error else { return Self.error(.unavailable(error.description)) }
                return Self.error(error)
            }
        }
        router.get("metrics") { _, _ in
            Response(
                status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
                body: ResponseBody(byteBuffer: ByteBuffer(bytes: metrics.text())))
        }
        addOpenAPIRoute(to: router)
        router.get("v1/models") { request, _ in
            await self.respond { () async throws(RegistryError) in
                let grant = try await self.grant(request)
                let readable = try await service.list().filter { ModelRegistry.canRead($0, with: grant) }
                return Self.json(["models": readable.map(ModelListing.init)])
            }
        }
        router.get("v1/models/:name") { request, context in
            let name = context.parameters.get("name") ?? ""
            let client = request.uri.queryParameters.get("client")
            return await self.respond { () async throws(RegistryError) in
                let grant = try await self.grant(request)
                let entry = try await cache.model(name, in: service)
                try Self.requireRead([entry.model], grant: grant, what: "model \(name)")
                guard let served = ModelRegistry.served(entry.model, versions: entry.versions, to: client) else {
                    throw .notFound(name)
                }
                let body = cache.answer(entry, served: served) {
                    Self.encoded(ModelInfo(model: entry.model, versions: entry.versions, served: served))
                }
                return Response(
                    status: .ok, headers: [.contentType: "application/json"], body: ResponseBody(byteBuffer: body))
            }
        }
        router.post("v1/models/:name/versions") { request, context in
            let name = context.parameters.get("name") ?? ""
            if let refusal = await self.refusal(request, needing: .publish) { return refusal }
            let isPrivate: Bool?
            switch request.uri.queryParameters.get("private") {
            case nil: isPrivate = nil
            case "true": isPrivate = true
            case "false": isPrivate = false
            default: return Self.error(.invalidRequest("private must be true or false"))
            }
            return try await self.publish(request, as: name, isPrivate: isPrivate, logger: context.logger)
        }
        router.post("v1/models/:name/promote") { request, context in
            let name = context.parameters.get("name") ?? ""
            if let refusal = await self.refusal(request, needing: .publish) { return refusal }
            let version = request.uri.queryParameters.get("version").flatMap { Int($0) }
            return await self.respond { () async throws(RegistryError) in
                guard let version else { throw .invalidRequest("give the version to promote: ?version=N") }
                try await service.promote(name, version: version)
                context.logger.info("promoted", metadata: ["model": "\(name)", "version": "\(version)"])
                return Self.json(ModelListing(try await service.info(name).model))
            }
        }
        router.post("v1/models/:name/rollout") { request, context in
            let name = context.parameters.get("name") ?? ""
            if let refusal = await self.refusal(request, needing: .publish) { return refusal }
            let version = request.uri.queryParameters.get("version").flatMap { Int($0) }
            let percent = request.uri.queryParameters.get("percent").flatMap { Int($0) }
            return await self.respond { () async throws(RegistryError) in
                guard let version, let percent else {
                    throw .invalidRequest("give the version and the share of clients: ?version=N&percent=P")
                }
                try await service.rollout(name, version: version, percent: percent)
                context.logger.info(
                    "rollout", metadata: ["model": "\(name)", "version": "\(version)", "percent": "\(percent)"])
                return Self.json(ModelListing(try await service.info(name).model))
            }
        }
        router.delete("v1/models/:name/versions/:version") { request, context in
            let name = context.parameters.get("name") ?? ""
            if let refusal = await self.refusal(request, needing: .publish) { return refusal }
            let version = context.parameters.get("version").flatMap { Int($0) }
            return await self.respond { () async throws(RegistryError) in
                guard let version else { throw .invalidRequest("the version must be a number") }
                try await service.delete(name, version: version)
                context.logger.info("deleted", metadata: ["model": "\(name)", "version": "\(version)"])
                return Response(status: .noContent)
            }
        }
        router.get("v1/blobs/:sha256") { request, context in
            try await self.blob(request, context: context)
        }
        router.head("v1/blobs/:sha256") { request, context in
            try await self.blob(request, context: context, headersOnly: true)
        }
    }

    /// Streams the body to an incoming blob (never whole in memory), stopping at the size limit, then publishes.
    private func publish(
        _ request: Request, as name: String, isPrivate: Bool?, logger: Logger
    ) async throws -> Response {
        do {
            try ModelRegistry.validate(name: name)
            // A declared length over the limit is refused before a byte of the body is read.
            if let declared = request.headers[.contentLength].flatMap({ Int($0) }), declared > uploadLimit {
                throw RegistryError.tooLarge(limit: uploadLimit)
            }
            let upload = try service.incoming()
            for try await buffer in request.body {
                guard upload.size + buffer.readableBytes <= uploadLimit else {
                    throw RegistryError.tooLarge(limit: uploadLimit)
                }
                do {
                    try buffer.withUnsafeReadableBytes { (bytes) throws(SystemError) in try upload.write(bytes) }
                } catch {
                    throw RegistryError.storage("\(error)")
                }
            }
            guard upload.size > 0 else {
                throw RegistryError.invalidRequest("the request has no body: send the .tflite file")
            }
            let published = try await service.publish(upload, as: name, isPrivate: isPrivate)
            metrics.publish(outcome: "published")
            logger.info(
                "published",
                metadata: [
                    "model": "\(name)", "version": "\(published.version)", "sha256": "\(published.sha256)",
                    "bytes": "\(published.size)",
                ])
            var response = Self.json(published)
            response.status = .created
            return response
        } catch let error as RegistryError {
            metrics.publish(outcome: "refused")
            logger.notice("publish refused", metadata: ["model": "\(name.prefix(80))", "reason": "\(error)"])
            return Self.error(error)
        }
    }

    /// A model file by content address: immutable, with `ETag`, `If-None-Match` and single `Range` support
    /// (`headersOnly` for `HEAD`: the same status and headers, no body).
    private func blob(
        _ request: Request, context: RegistryRequestContext, headersOnly: Bool = false
    ) async throws -> Response {
        let sha256 = context.parameters.get("sha256") ?? ""
        guard sha256.count == 64, sha256.utf8.allSatisfy({ (48...57).contains($0) || (97...102).contains($0) }) else {
            return Self.error(.invalidRequest("a blob is named by 64 lowercase hexadecimal digits"))
        }
        var owners: ResponseCache.BlobOwners?
        let size: Int
        do {
            let grant = try await self.grant(request)
            owners = try await cache.owners(ofBlob: sha256, in: service)
            guard let owners, !owners.models.isEmpty else { throw RegistryError.notFound("blob \(sha256)") }
            try Self.requireRead(owners.models, grant: grant, what: "blob \(sha256)")
            guard let stored = try await service.blobs.size(of: sha256) else {
                throw RegistryError.notFound("blob \(sha256)")
            }
            size = stored
        } catch let error as RegistryError {
            // A refusal depends on the token (or its absence) and is never to be cached, whether or not the blob's
            // owners were looked up before the token was refused.
            var refusal = Self.error(error)
            refusal.headers.append(contentsOf: Self.privateBlobHeaders)
            return refusal
        }
        guard let owners else { return Self.error(.notFound("blob \(sha256)")) }
        var headers: HTTPFields = [
            .eTag: "\"\(sha256)\"", .acceptRanges: "bytes", .contentType: "application/octet-stream",
        ]
        headers.append(contentsOf: Self.isPrivate(owners) ? Self.privateBlobHeaders : Self.publicBlobHeaders)
        if let condition = request.headers[.ifNoneMatch],
            condition.contains(sha256) || condition.trimmingCharacters(in: .whitespaces) == "*"
        {
            return Response(status: .notModified, headers: headers)
        }
        var range = 0...(max(size, 1) - 1)
        var status = HTTPResponse.Status.ok
        let ifRange = request.headers[.ifRange]
        if let header = request.headers[.range], ifRange == nil || ifRange!.contains(sha256) {
            switch Self.byteRange(header, size: size) {
            case .whole:
                break
            case .unsatisfiable:
                headers[.contentRange] = "bytes */\(size)"
                return Response(status: .rangeNotSatisfiable, headers: headers)
            case .range(let requested):
                range = requested
                status = .partialContent
                headers[.contentRange] = "bytes \(range.lowerBound)-\(range.upperBound)/\(size)"
            }
        }
        headers[.contentLength] = String(range.count)
        if headersOnly { return Response(status: status, headers: headers) }
        let privateNames = Set(owners.models.filter(\.isPrivate).map(\.name))
        metrics.blobSent(
            bytes: range.count, fromStart: range.lowerBound == 0,
            versions: owners.versions.map {
                privateNames.contains($0.model) ? ("(private)", nil) : ($0.model, $0.version)
            })
        // Piece by piece as the client reads (each piece once the connection has taken the ones before), from
        // memory for a kept file, else from the store: never more than a few pieces per connection.
        let channel = context.channel
        if let bytes = await cache.blob(sha256, size: size, from: service.blobs),
            let slice = bytes.getSlice(at: range.lowerBound, length: range.count)
        {
            let body = ResponseBody(contentLength: slice.readableBytes) { writer in
                try await Self.write(slice, to: &writer, on: channel)
                try await writer.finish(nil)
            }
            return Response(status: status, headers: headers, body: body)
        }
        let blobs = service.blobs
        let bytes = range
        let body = ResponseBody(contentLength: bytes.count) { writer in
            try await blobs.read(sha256, size: size, range: bytes) { piece in
                try await Self.write(piece, to: &writer, on: channel)
            }
            try await writer.finish(nil)
        }
        return Response(status: status, headers: headers, body: body)
    }

    /// The most bytes of a download handed to a connection at once.
    package static let downloadPiece = 64 << 10

    /// The most bytes of a download from memory or from a file the registry holds for one connection whose client
    /// does not read: NIO's write buffer up to its high-water mark (64 KiB) and the piece that passed it, and the
    /// next piece, waiting in Hummingbird's writer until the channel is writable again (from PostgreSQL the 1 MiB
    /// chunk that piece was cut from). Measured: 800 such clients, +181 MB (232 KiB each, with the connection's
    /// own state).
    package static let bufferedBytesPerConnection = 3 * downloadPiece

    /// Writes `buffer` to `writer` in pieces of at most ``downloadPiece`` bytes, each after the previous one was
    /// taken by the connection `channel`.
    ///
    /// Hummingbird's writer (NIO's `NIOAsyncWriter`) waits while the channel is not writable, but a write returns
    /// as soon as it is queued for the channel's event loop, and the writer only learns that the channel stopped
    /// being writable once the loop has run the writes queued before: a task reading pieces from a file faster
    /// than a busy loop runs them queued ~1 MB per connection that never reads (300 such clients: +333 MB). So
    /// after each piece this waits for a task queued behind the write on the loop (the loop runs its tasks in
    /// order): the write has then reached the channel, whose writability the writer knows before the next piece.
    private static func write(
        _ buffer: ByteBuffer, to writer: inout any ResponseBodyWriter, on channel: any Channel
    ) async throws {
        var rest = buffer
        while rest.readableBytes > 0, let piece = rest.readSlice(length: min(downloadPiece, rest.readableBytes)) {
            try await writer.write(piece)
            try await channel.eventLoop.submit {}.get()
        }
    }

    /// Whether a blob is readable only with a token: every model that has it is private (a blob that a public
    /// model also has is public).
    private static func isPrivate(_ owners: ResponseCache.BlobOwners) -> Bool {
        !owners.models.isEmpty && owners.models.allSatisfy(\.isPrivate)
    }

    /// A public blob: immutable, and any cache (a CDN) may keep it for a year.
    private static let publicBlobHeaders: HTTPFields = [.cacheControl: "public, max-age=31536000, immutable"]

    /// A private blob (answers and refusals alike): no shared cache may keep it, and the answer depends on the
    /// token, so a cache that does keep it must key it by `Authorization`.
    private static let privateBlobHeaders: HTTPFields = [.cacheControl: "private, no-store", .vary: "Authorization"]

    /// What a `Range` header asks of a `size`-byte file.
    package enum ByteRange: Equatable {
        /// The header is not a single byte range this server serves (several ranges, other units, malformed):
        /// ignored, as HTTP allows, and the whole file sent.
        case whole
        /// A valid range that starts past the end of the file.
        case unsatisfiable
        case range(ClosedRange<Int>)
    }

    /// The single range of a `Range: bytes=START-[END]` or `bytes=-SUFFIX` header within `size` bytes.
    package static func byteRange(_ header: String, size: Int) -> ByteRange {
        guard header.hasPrefix("bytes="), !header.contains(",") else { return .whole }
        let parts = header.dropFirst(6).split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 2 else { return .whole }
        let digits = { (part: Substring) in !part.isEmpty && part.utf8.allSatisfy { $0 >= 48 && $0 <= 57 } }
        // A number too large for Int is past any file's end: as large as can be.
        let number = { (part: Substring) in Int(part) ?? Int.max }
        if parts[0].isEmpty {  // the last SUFFIX bytes
            guard digits(parts[1]) else { return .whole }
            let suffix = number(parts[1])
            return suffix > 0 && size > 0 ? .range(max(0, size - min(suffix, size))...(size - 1)) : .unsatisfiable
        }
        guard digits(parts[0]), parts[1].isEmpty || digits(parts[1]) else { return .whole }
        let start = number(parts[0])
        guard start < size else { return .unsatisfiable }
        let end = parts[1].isEmpty ? size - 1 : number(parts[1])
        guard end >= start else { return .whole }
        return .range(start...min(end, size - 1))
    }

    /// What the request's bearer token grants: nil without an `Authorization` header; an error when the header
    /// is not a bearer token of this registry.
    private func grant(_ request: Request) async throws(RegistryError) -> TokenGrant? {
        guard let header = request.headers[.authorization] else { return nil }
        // The scheme name is case-insensitive (RFC 9110).
        guard header.prefix(7).lowercased() == "bearer ",
            let grant = try await service.authorize(String(header.dropFirst(7).drop(while: { $0 == " " })))
        else {
            throw .unauthorized("the token is not valid for this registry (send Authorization: Bearer <token>)")
        }
        return grant
    }

    /// Throws unless `grant` may read one of `models` (the models holding what is asked for).
    private static func requireRead(_ models: [ModelRecord], grant: TokenGrant?, what: String) throws(RegistryError) {
        guard !models.contains(where: { ModelRegistry.canRead($0, with: grant) }) else { return }
        if grant == nil {
            throw .unauthorized("\(what) is private: send a read token (Authorization: Bearer <token>)")
        }
        throw .forbidden("this token cannot read \(what)")
    }

    /// A refusal when the request has no valid token of `role` (a publish token also reads).
    private func refusal(_ request: Request, needing role: TokenRole) async -> Response? {
        guard request.headers[.authorization] != nil else {
            return Self.error(.unauthorized("this needs a \(role.rawValue) token: Authorization: Bearer <token>"))
        }
        do {
            let granted = try await grant(request)
            if role == .publish && granted?.role != .publish {
                return Self.error(.forbidden("this needs a publish token; this token can only read"))
            }
        } catch {
            return Self.error(error)
        }
        return nil
    }

    private func respond(_ body: () async throws(RegistryError) -> Response) async -> Response {
        do {
            return try await body()
        } catch {
            return Self.error(error)
        }
    }

    static func error(_ error: RegistryError) -> Response {
        var response = json(["error": error.description])
        response.status = HTTPResponse.Status(code: error.status)
        return response
    }

    static func json(_ value: some Encodable) -> Response {
        Response(
            status: .ok, headers: [.contentType: "application/json"], body: ResponseBody(byteBuffer: encoded(value)))
    }

    /// `value` as JSON: sorted keys, ISO 8601 dates.
    static func encoded(_ value: some Encodable) -> ByteBuffer {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        encoder.dateEncodingStrategy = .iso8601
        return ByteBuffer(bytes: (try? encoder.encode(value)) ?? Data("{}".utf8))
    }
}

/// A model in listings.
struct ModelListing: Encodable {
    var name: String
    var latestVersion: Int?
    var rolloutVersion: Int?
    var rolloutPercent: Int
    var isPrivate: Bool

    init(_ model: ModelRecord) {
        name = model.name
        latestVersion = model.latestVersion
        rolloutVersion = model.rolloutVersion
        rolloutPercent = model.rolloutPercent
        isPrivate = model.isPrivate
    }
}

/// A model's details: its versions, and the version the asking client gets with its blob's address.
struct ModelInfo: Encodable {
    var name: String
    var latestVersion: Int?
    var rolloutVersion: Int?
    var rolloutPercent: Int
    var isPrivate: Bool
    var versions: [PublishedVersion]
    var served: PublishedVersion
    var servedBlob: String

    init(model: ModelRecord, versions: [PublishedVersion], served: PublishedVersion) {
        name = model.name
        latestVersion = model.latestVersion
        rolloutVersion = model.rolloutVersion
        rolloutPercent = model.rolloutPercent
        isPrivate = model.isPrivate
        self.versions = versions
        self.served = served
        servedBlob = "/v1/blobs/" + served.sha256
    }
}
